-- Decision 044: Team Members and Pending Requests are searched by the start of any word of a
-- member's name, one range of member_name_words' primary key, instead of a substring test of
-- every member's name. The words are kept by triggers, like the tallies of decision 037: they
-- see every way a membership or a name is written (the app, the seeds, bulk SQL), and a
-- membership's words are deleted with it (the foreign key's cascade).
--
-- A name's words: its lowercased full name, hyphens read as spaces, split at spaces. SQLite has
-- no split function and triggers take no WITH clause, so the name becomes a JSON array of its
-- words (quotes and backslashes escaped) that json_each() reads; a name that still does not make
-- valid JSON (a control character) has no words, and is then not found by a search rather than
-- refusing the membership.
CREATE TABLE `member_name_words` (
	`organization_id` text NOT NULL,
	`word` text NOT NULL,
	`membership_id` text NOT NULL,
	PRIMARY KEY(`organization_id`, `word`, `membership_id`),
	FOREIGN KEY (`membership_id`) REFERENCES `organization_members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `member_name_words_membership_idx` ON `member_name_words` (`membership_id`);--> statement-breakpoint
-- Backfill from the memberships and names already there.
INSERT OR IGNORE INTO `member_name_words` (`organization_id`, `word`, `membership_id`)
  SELECT n.`organization_id`, w.`value`, n.`id`
  FROM (SELECT m.`organization_id`, m.`id`, ('["' || replace(replace(replace(replace(lower(trim(p.`full_name`)), '\', '\\'), '"', '\"'), '-', ' '), ' ', '","') || '"]') AS `words`
        FROM `organization_members` m JOIN `profiles` p ON p.`id` = m.`user_id`) n,
    json_each(CASE WHEN json_valid(n.`words`) THEN n.`words` ELSE '[]' END) w
  WHERE w.`value` <> '';--> statement-breakpoint
-- A new membership: its member's words, if the profile is there yet.
CREATE TRIGGER `member_name_words_membership_insert` AFTER INSERT ON `organization_members` BEGIN
  INSERT OR IGNORE INTO `member_name_words` (`organization_id`, `word`, `membership_id`)
    SELECT new.`organization_id`, w.`value`, new.`id`
    FROM (SELECT ('["' || replace(replace(replace(replace(lower(trim(p.`full_name`)), '\', '\\'), '"', '\"'), '-', ' '), ' ', '","') || '"]') AS `words` FROM `profiles` p WHERE p.`id` = new.`user_id`) n,
      json_each(CASE WHEN json_valid(n.`words`) THEN n.`words` ELSE '[]' END) w
    WHERE w.`value` <> '';
END;--> statement-breakpoint
-- A profile created after its memberships (a profile is inserted when missing): its words for each.
CREATE TRIGGER `member_name_words_profile_insert` AFTER INSERT ON `profiles` BEGIN
  INSERT OR IGNORE INTO `member_name_words` (`organization_id`, `word`, `membership_id`)
    SELECT m.`organization_id`, w.`value`, m.`id`
    FROM (SELECT ('["' || replace(replace(replace(replace(lower(trim(new.`full_name`)), '\', '\\'), '"', '\"'), '-', ' '), ' ', '","') || '"]') AS `words`) n, `organization_members` m,
      json_each(CASE WHEN json_valid(n.`words`) THEN n.`words` ELSE '[]' END) w
    WHERE m.`user_id` = new.`id` AND w.`value` <> '';
END;--> statement-breakpoint
-- A renamed member: the words of each of their memberships (a person has a few) are replaced.
CREATE TRIGGER `member_name_words_profile_rename` AFTER UPDATE OF `full_name` ON `profiles`
WHEN new.`full_name` IS NOT old.`full_name` BEGIN
  DELETE FROM `member_name_words`
    WHERE `membership_id` IN (SELECT `id` FROM `organization_members` WHERE `user_id` = new.`id`);
  INSERT OR IGNORE INTO `member_name_words` (`organization_id`, `word`, `membership_id`)
    SELECT m.`organization_id`, w.`value`, m.`id`
    FROM (SELECT ('["' || replace(replace(replace(replace(lower(trim(new.`full_name`)), '\', '\\'), '"', '\"'), '-', ' '), ' ', '","') || '"]') AS `words`) n, `organization_members` m,
      json_each(CASE WHEN json_valid(n.`words`) THEN n.`words` ELSE '[]' END) w
    WHERE m.`user_id` = new.`id` AND w.`value` <> '';
END;
