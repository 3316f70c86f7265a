ALTER TABLE `organizations` ADD `created_by` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `organizations` ADD `submission_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_submission_key_idx` ON `organizations` (`created_by`,`submission_key`);--> statement-breakpoint
ALTER TABLE `stored_files` ADD `released_at` integer;--> statement-breakpoint
CREATE INDEX `stored_files_released_idx` ON `stored_files` (`released_at`) WHERE released_at is not null;