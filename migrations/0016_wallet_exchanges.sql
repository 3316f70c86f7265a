CREATE TABLE `wallet_exchanges` (
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
	CONSTRAINT "wallet_exchanges_purpose_check" CHECK(purpose in ('issue'))
);
--> statement-breakpoint
CREATE INDEX `wallet_exchanges_expires_idx` ON `wallet_exchanges` (`expires_at`);--> statement-breakpoint
CREATE INDEX `wallet_exchanges_user_idx` ON `wallet_exchanges` (`user_id`);