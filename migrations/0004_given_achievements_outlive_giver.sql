PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_achievements` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`organization_id` text,
	`created_by` text,
	`title` text NOT NULL,
	`description` text,
	`date` text NOT NULL,
	`type` text DEFAULT 'award' NOT NULL,
	`image_url` text,
	`video_url` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`is_visible` integer DEFAULT true NOT NULL,
	`submission_key` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "achievements_type_check" CHECK(type in ('award', 'training', 'milestone')),
	CONSTRAINT "achievements_status_check" CHECK(status in ('pending', 'accepted', 'rejected'))
);
--> statement-breakpoint
INSERT INTO `__new_achievements`("id", "user_id", "organization_id", "created_by", "title", "description", "date", "type", "image_url", "video_url", "status", "is_visible", "submission_key", "created_at") SELECT "id", "user_id", "organization_id", "created_by", "title", "description", "date", "type", "image_url", "video_url", "status", "is_visible", "submission_key", "created_at" FROM `achievements`;--> statement-breakpoint
DROP TABLE `achievements`;--> statement-breakpoint
ALTER TABLE `__new_achievements` RENAME TO `achievements`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `achievements_submission_key_idx` ON `achievements` (`created_by`,`user_id`,`submission_key`);--> statement-breakpoint
CREATE INDEX `achievements_user_status_date_idx` ON `achievements` (`user_id`,`status`,`is_visible`,`date`);--> statement-breakpoint
CREATE INDEX `achievements_org_created_idx` ON `achievements` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `achievements_org_user_created_idx` ON `achievements` (`organization_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `achievements_created_by_idx` ON `achievements` (`created_by`);