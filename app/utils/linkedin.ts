// LinkedIn's "Add to profile" link for a certification: it opens the person's LinkedIn profile
// with the form filled in (https://addtoprofile.linkedin.com). Nothing is sent to LinkedIn until
// the person saves it there.
const ADD_TO_PROFILE = "https://www.linkedin.com/profile/add";

export function linkedInAddToProfileUrl(achievement: {
  title: string;
  organizationName: string;
  /** YYYY-MM-DD */
  date: string;
  /** Where a reader checks it: the credential, or until credentials exist, the public passport. */
  url: string;
}) {
  const [year, month] = achievement.date.split("-");
  const params = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: achievement.title,
    organizationName: achievement.organizationName,
    issueYear: String(Number(year)),
    issueMonth: String(Number(month)),
    certUrl: achievement.url,
  });
  return `${ADD_TO_PROFILE}?${params}`;
}
