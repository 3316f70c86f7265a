PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_wallet_exchanges` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`achievement_id` text,
	`credential_id` text,
	`import_nonce` text,
	`purpose` text NOT NULL,
	`challenge` text NOT NULL,
	`holder` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`achievement_id`) REFERENCES `achievements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`credential_id`) REFERENCES `credentials`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "wallet_exchanges_purpose_check" CHECK(purpose in ('issue', 'accept', 'import'))
);
--> statement-breakpoint
INSERT INTO `__new_wallet_exchanges`("id", "user_id", "achievement_id", "credential_id", "import_nonce", "purpose", "challenge", "holder", "created_at", "expires_at", "used_at") SELECT "id", "user_id", "achievement_id", "credential_id", NULL, "purpose", "challenge", "holder", "created_at", "expires_at", "used_at" FROM `wallet_exchanges`;--> statement-breakpoint
DROP TABLE `wallet_exchanges`;--> statement-breakpoint
ALTER TABLE `__new_wallet_exchanges` RENAME TO `wallet_exchanges`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `wallet_exchanges_expires_idx` ON `wallet_exchanges` (`expires_at`);--> statement-breakpoint
CREATE INDEX `wallet_exchanges_user_idx` ON `wallet_exchanges` (`user_id`);--> statement-breakpoint
ALTER TABLE `imported_credentials` ADD `holder_did` text;