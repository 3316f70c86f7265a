-- Decision 089: each session records how it was signed in, and the strong factor (a code or a
-- passkey) it has used, so that an organisation that asks its admins for a strong factor asks
-- it of the session, not only of the account. Sessions from before stay null: their admins are
-- asked to confirm once.
ALTER TABLE `sessions` ADD `sign_in_method` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `strong_factor` text;
