// Apart from db/queries/paging.ts, with no imports: the browser's code (the notification bell)
// reads a page size without bundling the query builder.

/** Every paged list's page size, in one place. */
export const PAGE_SIZES = {
  teamMembers: 25,
  pendingRequests: 20,
  // The organisation directory and its search.
  organizations: 20,
  // The switcher in the header: one page is all most people ever have.
  memberOrganizations: 50,
  givenAchievements: 20,
  notifications: 20,
  // The full public passport (?all=1), the own passport's accepted and pending lists, and the
  // chunks the print view reads every achievement in.
  passport: 50,
  ownPendingAchievements: 20,
  // The endorsements a person received (decision 072).
  endorsements: 20,
  // The endorsements an entry of a public passport shows, on its own page (decision 079).
  entryEndorsements: 20,
  printChunk: 200,
  // Settings' signed-in browsers.
  sessions: 20,
} as const;
