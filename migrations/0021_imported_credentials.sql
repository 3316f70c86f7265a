CREATE TABLE `imported_credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`achievement_id` text NOT NULL,
	`import_key` text NOT NULL,
	`format` text NOT NULL,
	`issuer_identity` text NOT NULL,
	`status` text NOT NULL,
	`revoked_at` integer,
	`checked_at` integer NOT NULL,
	`original_key` text NOT NULL,
	`original_name` text NOT NULL,
	`original_type` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`achievement_id`) REFERENCES `achievements`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "imported_credentials_status_check" CHECK(status in ('verified', 'expired', 'revoked', 'unverified'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `imported_credentials_user_key_idx` ON `imported_credentials` (`user_id`,`import_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `imported_credentials_achievement_idx` ON `imported_credentials` (`achievement_id`);--> statement-breakpoint
CREATE INDEX `imported_credentials_checked_idx` ON `imported_credentials` (`checked_at`);