-- Decision 058: a session ends when it has not been used for 7 days (better-auth's expiresIn,
-- moved forward as the session is used) and, however much it is used, 30 days after it started.
-- The 30-day cap is kept by triggers on `expires_at` itself, so everything that reads a session
-- (the signed-in guard, the auth library, the Settings list, the notification hub, the nightly
-- clean-up) sees one expiry and needs no rule of its own.
DROP INDEX `sessions_user_id_idx`;--> statement-breakpoint
ALTER TABLE `sessions` ADD `place` text;--> statement-breakpoint
CREATE INDEX `sessions_user_seen_idx` ON `sessions` (`user_id`,`updated_at`,`id`);--> statement-breakpoint
-- Sessions already open end by the new rules too: 7 days after they were last seen, 30 after they began.
UPDATE `sessions` SET `expires_at` = min(`expires_at`, `updated_at` + 604800000, `created_at` + 2592000000);--> statement-breakpoint
-- No session outlives its 30th day (2,592,000,000 ms), whoever writes its expiry.
CREATE TRIGGER `sessions_max_age_insert` AFTER INSERT ON `sessions`
WHEN new.`expires_at` > new.`created_at` + 2592000000 BEGIN
  UPDATE `sessions` SET `expires_at` = new.`created_at` + 2592000000 WHERE `id` = new.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `sessions_max_age_update` AFTER UPDATE OF `expires_at`, `created_at` ON `sessions`
WHEN new.`expires_at` > new.`created_at` + 2592000000 BEGIN
  UPDATE `sessions` SET `expires_at` = new.`created_at` + 2592000000 WHERE `id` = new.`id`;
END;
