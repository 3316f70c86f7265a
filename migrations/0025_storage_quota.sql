CREATE TABLE `stored_files` (
	`key` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stored_files_user_idx` ON `stored_files` (`user_id`);--> statement-breakpoint
ALTER TABLE `profiles` ADD `storage_bytes` integer DEFAULT 0 NOT NULL;