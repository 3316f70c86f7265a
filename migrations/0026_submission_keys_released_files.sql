DROP INDEX `endorsements_achievement_idx`;--> statement-breakpoint
CREATE INDEX `endorsements_achievement_idx` ON `endorsements` (`achievement_id`,`status`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `created_by` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `organizations` ADD `submission_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_submission_key_idx` ON `organizations` (`created_by`,`submission_key`);--> statement-breakpoint
ALTER TABLE `profiles` ADD `storage_backfill_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `stored_files` ADD `released_at` integer;--> statement-breakpoint
CREATE INDEX `stored_files_released_idx` ON `stored_files` (`released_at`) WHERE released_at is not null;--> statement-breakpoint
-- Decision 077: everyone here now has files from before the tally (migration 0025) to count;
-- people who sign up from now on start counted.
UPDATE `profiles` SET `storage_backfill_pending` = true;--> statement-breakpoint
-- Decision 077: the quota (STORAGE_QUOTA_BYTES, 1 GB) held by the database as the tally is
-- written, so two uploads checked against the same tally at once cannot both pass it: the batch
-- whose tally would cross the quota fails whole (its row and its count together), and the app
-- says 'Storage full'. A tally that falls is never refused, nor the backfill's count of files
-- kept before the tally (which clears `storage_backfill_pending` in the same update).
CREATE TRIGGER `profiles_storage_quota` BEFORE UPDATE OF `storage_bytes` ON `profiles`
WHEN new.`storage_bytes` > 1073741824 AND new.`storage_bytes` > old.`storage_bytes`
  AND NOT old.`storage_backfill_pending` BEGIN
  SELECT RAISE(ABORT, 'storage quota exceeded');
END;
