CREATE TABLE `achievement_acceptances` (
	`achievement_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`holder` text NOT NULL,
	`exchange_id` text NOT NULL,
	`challenge` text NOT NULL,
	`presentation` text NOT NULL,
	`signed_at` integer NOT NULL,
	FOREIGN KEY (`achievement_id`) REFERENCES `achievements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `credential_holders` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`credential_id` text NOT NULL,
	`holder` text NOT NULL,
	`issued_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`credential_id`) REFERENCES `credentials`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credential_holders_credential_holder_idx` ON `credential_holders` (`credential_id`,`holder`);--> statement-breakpoint
CREATE INDEX `credential_holders_user_holder_idx` ON `credential_holders` (`user_id`,`holder`,`issued_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_wallet_exchanges` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`achievement_id` text NOT NULL,
	`credential_id` text,
	`purpose` text NOT NULL,
	`challenge` text NOT NULL,
	`holder` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`achievement_id`) REFERENCES `achievements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`credential_id`) REFERENCES `credentials`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "wallet_exchanges_purpose_check" CHECK(purpose in ('issue', 'accept'))
);
--> statement-breakpoint
INSERT INTO `__new_wallet_exchanges`("id", "user_id", "achievement_id", "credential_id", "purpose", "challenge", "holder", "created_at", "expires_at", "used_at") SELECT "id", "user_id", "achievement_id", "credential_id", "purpose", "challenge", "holder", "created_at", "expires_at", "used_at" FROM `wallet_exchanges`;--> statement-breakpoint
DROP TABLE `wallet_exchanges`;--> statement-breakpoint
ALTER TABLE `__new_wallet_exchanges` RENAME TO `wallet_exchanges`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `wallet_exchanges_expires_idx` ON `wallet_exchanges` (`expires_at`);--> statement-breakpoint
CREATE INDEX `wallet_exchanges_user_idx` ON `wallet_exchanges` (`user_id`);