import { NavLink } from "@remix-run/react";
import { buttonVariants } from "#app/components/ui/button.tsx";

/** Settings' sections (docs/decisions/080), each a page of its own under /settings. */
export const SETTINGS_SECTIONS = [
  { to: "/settings", label: "Profile", end: true },
  { to: "/settings/security", label: "Security", end: false },
  { to: "/settings/addresses", label: "Addresses", end: false },
  { to: "/settings/sessions", label: "Sessions", end: false },
  { to: "/settings/data", label: "Your data", end: false },
  { to: "/settings/danger", label: "Danger zone", end: false },
] as const;

/**
 * The sections as a navigation landmark of plain links: the current one is marked with
 * `aria-current="page"` (NavLink), they wrap on a narrow screen, and Tab reaches each in turn.
 */
export function SettingsNav() {
  return (
    <nav aria-label="Settings sections">
      <ul className="flex flex-wrap gap-2">
        {SETTINGS_SECTIONS.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
              prefetch="intent"
              className={({ isActive }) => buttonVariants({ variant: isActive ? "default" : "outline", size: "sm" })}
            >
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
