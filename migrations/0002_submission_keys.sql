ALTER TABLE `achievements` ADD `submission_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `achievements_submission_key_idx` ON `achievements` (`created_by`,`user_id`,`submission_key`);--> statement-breakpoint
ALTER TABLE `beta_feedback` ADD `submission_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `beta_feedback_submission_key_idx` ON `beta_feedback` (`user_id`,`submission_key`);