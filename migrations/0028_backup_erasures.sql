CREATE TABLE `backup_erasures` (
	`target` text PRIMARY KEY NOT NULL,
	`is_prefix` integer NOT NULL,
	`due_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `backup_erasures_due_idx` ON `backup_erasures` (`due_at`);