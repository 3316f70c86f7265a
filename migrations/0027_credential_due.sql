ALTER TABLE `achievements` ADD `credential_due` text;--> statement-breakpoint
CREATE INDEX `achievements_credential_due_idx` ON `achievements` (`created_at`,`id`) WHERE credential_due is not null;--> statement-breakpoint
-- Issue 43: accepted achievements of an organisation that were left without their credential when
-- signing failed are signed by the frequent cron from now on. Without the recipient's choice on
-- record, their credential carries no media.
UPDATE `achievements` SET `credential_due` = 'without-media'
WHERE `status` = 'accepted' AND `organization_id` IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM `credentials` WHERE `credentials`.`achievement_id` = `achievements`.`id`);
