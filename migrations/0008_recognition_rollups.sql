-- Decision 037: what the admin dashboard counts is kept small and exact by triggers, so that a
-- dashboard reads one row per day (analytics), one row per organisation (its totals) and an index
-- range (needs recognition), however many achievements the organisation ever gave. Triggers, not
-- the app's write batches: they also see cascading deletes (account purge), a giver's account
-- set to null, the seeds and bulk SQL. Every statement below is bounded by one achievement's
-- organisation and day, or by one member's achievements from one organisation.
CREATE TABLE `recognition_days` (
	`organization_id` text NOT NULL,
	`day` integer NOT NULL,
	`given_by` text NOT NULL,
	`live` integer DEFAULT 0 NOT NULL,
	`given` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `day`, `given_by`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `organization_members` ADD `last_recognised_at` integer;--> statement-breakpoint
CREATE INDEX `organization_members_recognised_since_idx` ON `organization_members` (`organization_id`,`status`,coalesce(last_recognised_at, approved_at, requested_at));--> statement-breakpoint
ALTER TABLE `organizations` ADD `achievements_given` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `approved_members` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `pending_members` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Backfill from the rows already there.
INSERT INTO `recognition_days` (`organization_id`, `day`, `given_by`, `live`, `given`)
  SELECT `organization_id`, cast(`created_at` / 86400000 as integer), coalesce(`created_by`, ''),
    sum(`status` IN ('pending', 'accepted')), count(*)
  FROM `achievements` WHERE `organization_id` IS NOT NULL
  GROUP BY 1, 2, 3;--> statement-breakpoint
UPDATE `organizations` SET
  `achievements_given` = (SELECT count(*) FROM `achievements` a WHERE a.`organization_id` = `organizations`.`id`),
  `approved_members` = (SELECT count(*) FROM `organization_members` m WHERE m.`organization_id` = `organizations`.`id` AND m.`status` = 'approved'),
  `pending_members` = (SELECT count(*) FROM `organization_members` m WHERE m.`organization_id` = `organizations`.`id` AND m.`status` = 'pending');--> statement-breakpoint
UPDATE `organization_members` SET `last_recognised_at` = (
  SELECT max(a.`created_at`) FROM `achievements` a
  WHERE a.`organization_id` = `organization_members`.`organization_id` AND a.`user_id` = `organization_members`.`user_id`
    AND a.`status` IN ('pending', 'accepted'));--> statement-breakpoint
-- An achievement counts in its organisation's day (UTC days since the epoch, decision 007) and
-- giver's row; `live` when pending or accepted. Its recipient's last recognition is recomputed
-- from the (organization_id, user_id, created_at) index: that member's achievements only.
CREATE TRIGGER `achievements_tally_insert` AFTER INSERT ON `achievements`
WHEN new.`organization_id` IS NOT NULL BEGIN
  INSERT INTO `recognition_days` (`organization_id`, `day`, `given_by`, `live`, `given`)
    VALUES (new.`organization_id`, cast(new.`created_at` / 86400000 as integer), coalesce(new.`created_by`, ''),
      new.`status` IN ('pending', 'accepted'), 1)
    ON CONFLICT DO UPDATE SET `live` = `live` + excluded.`live`, `given` = `given` + 1;
  UPDATE `organizations` SET `achievements_given` = `achievements_given` + 1 WHERE `id` = new.`organization_id`;
  UPDATE `organization_members` SET `last_recognised_at` = (
    SELECT max(a.`created_at`) FROM `achievements` a
    WHERE a.`organization_id` = new.`organization_id` AND a.`user_id` = new.`user_id` AND a.`status` IN ('pending', 'accepted'))
  WHERE `organization_id` = new.`organization_id` AND `user_id` = new.`user_id`;
END;--> statement-breakpoint
CREATE TRIGGER `achievements_tally_delete` AFTER DELETE ON `achievements`
WHEN old.`organization_id` IS NOT NULL BEGIN
  UPDATE `recognition_days` SET `live` = `live` - (old.`status` IN ('pending', 'accepted')), `given` = `given` - 1
    WHERE `organization_id` = old.`organization_id` AND `day` = cast(old.`created_at` / 86400000 as integer)
      AND `given_by` = coalesce(old.`created_by`, '');
  DELETE FROM `recognition_days`
    WHERE `organization_id` = old.`organization_id` AND `day` = cast(old.`created_at` / 86400000 as integer)
      AND `given_by` = coalesce(old.`created_by`, '') AND `given` <= 0;
  UPDATE `organizations` SET `achievements_given` = `achievements_given` - 1 WHERE `id` = old.`organization_id`;
  UPDATE `organization_members` SET `last_recognised_at` = (
    SELECT max(a.`created_at`) FROM `achievements` a
    WHERE a.`organization_id` = old.`organization_id` AND a.`user_id` = old.`user_id` AND a.`status` IN ('pending', 'accepted'))
  WHERE `organization_id` = old.`organization_id` AND `user_id` = old.`user_id`;
END;--> statement-breakpoint
-- An answer (status), a purged giver (created_by set null) or any other change of what is
-- counted moves the achievement out of its old row and into its new one.
CREATE TRIGGER `achievements_tally_update` AFTER UPDATE OF `status`, `organization_id`, `created_by`, `created_at`, `user_id` ON `achievements`
WHEN old.`status` IS NOT new.`status` OR old.`organization_id` IS NOT new.`organization_id`
  OR old.`created_by` IS NOT new.`created_by` OR old.`created_at` IS NOT new.`created_at` OR old.`user_id` IS NOT new.`user_id` BEGIN
  UPDATE `recognition_days` SET `live` = `live` - (old.`status` IN ('pending', 'accepted')), `given` = `given` - 1
    WHERE `organization_id` = old.`organization_id` AND `day` = cast(old.`created_at` / 86400000 as integer)
      AND `given_by` = coalesce(old.`created_by`, '');
  DELETE FROM `recognition_days`
    WHERE `organization_id` = old.`organization_id` AND `day` = cast(old.`created_at` / 86400000 as integer)
      AND `given_by` = coalesce(old.`created_by`, '') AND `given` <= 0;
  INSERT INTO `recognition_days` (`organization_id`, `day`, `given_by`, `live`, `given`)
    SELECT new.`organization_id`, cast(new.`created_at` / 86400000 as integer), coalesce(new.`created_by`, ''),
      new.`status` IN ('pending', 'accepted'), 1
    WHERE new.`organization_id` IS NOT NULL
    ON CONFLICT DO UPDATE SET `live` = `live` + excluded.`live`, `given` = `given` + 1;
  UPDATE `organizations` SET `achievements_given` = `achievements_given` - 1 WHERE `id` = old.`organization_id`;
  UPDATE `organizations` SET `achievements_given` = `achievements_given` + 1 WHERE `id` = new.`organization_id`;
  UPDATE `organization_members` SET `last_recognised_at` = (
    SELECT max(a.`created_at`) FROM `achievements` a
    WHERE a.`organization_id` = `organization_members`.`organization_id` AND a.`user_id` = `organization_members`.`user_id`
      AND a.`status` IN ('pending', 'accepted'))
  WHERE (`organization_id` = old.`organization_id` AND `user_id` = old.`user_id`)
    OR (`organization_id` = new.`organization_id` AND `user_id` = new.`user_id`);
END;--> statement-breakpoint
-- Members by status per organisation, and a (re)joining member's last recognition (an earlier
-- membership's achievements stay with the person).
CREATE TRIGGER `organization_members_tally_insert` AFTER INSERT ON `organization_members` BEGIN
  UPDATE `organizations` SET `approved_members` = `approved_members` + (new.`status` = 'approved'),
    `pending_members` = `pending_members` + (new.`status` = 'pending')
  WHERE `id` = new.`organization_id`;
  UPDATE `organization_members` SET `last_recognised_at` = (
    SELECT max(a.`created_at`) FROM `achievements` a
    WHERE a.`organization_id` = new.`organization_id` AND a.`user_id` = new.`user_id` AND a.`status` IN ('pending', 'accepted'))
  WHERE `id` = new.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `organization_members_tally_delete` AFTER DELETE ON `organization_members` BEGIN
  UPDATE `organizations` SET `approved_members` = `approved_members` - (old.`status` = 'approved'),
    `pending_members` = `pending_members` - (old.`status` = 'pending')
  WHERE `id` = old.`organization_id`;
END;--> statement-breakpoint
CREATE TRIGGER `organization_members_tally_update` AFTER UPDATE OF `status`, `organization_id` ON `organization_members`
WHEN old.`status` IS NOT new.`status` OR old.`organization_id` IS NOT new.`organization_id` BEGIN
  UPDATE `organizations` SET `approved_members` = `approved_members` - (old.`status` = 'approved'),
    `pending_members` = `pending_members` - (old.`status` = 'pending')
  WHERE `id` = old.`organization_id`;
  UPDATE `organizations` SET `approved_members` = `approved_members` + (new.`status` = 'approved'),
    `pending_members` = `pending_members` + (new.`status` = 'pending')
  WHERE `id` = new.`organization_id`;
END;
