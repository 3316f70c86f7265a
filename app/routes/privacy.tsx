import type { MetaFunction } from "@remix-run/cloudflare";
import { LegalPage } from "#app/components/legal-page.tsx";
import { GOVERNING_LAW, MINIMUM_AGE, PRODUCT_NAME, RETENTION_MONTHS } from "#app/utils/constants.ts";

export const meta: MetaFunction = () => [{ title: `Privacy Policy · ${PRODUCT_NAME}` }];

export default function Privacy() {
  return (
    <LegalPage title="Privacy Policy" updated="1 November 2025">
      <section>
        <h2>1. What we collect</h2>
        <ul>
          <li>Account details: your name, e-mail address and an encrypted password.</li>
          <li>Your passport: biography, profile picture, introduction video and achievements.</li>
          <li>Organisation details: memberships, roles and the achievements organisations give.</li>
          <li>Payment status of member subscriptions; card details stay with our payment provider.</li>
        </ul>
      </section>
      <section>
        <h2>2. How we use it</h2>
        <p>
          To run your passport and show the parts you make public, to let organisations recognise their members, to send
          the e-mails the service needs (such as confirming your address), and to keep the service secure. We do not
          sell your data.
        </p>
      </section>
      <section>
        <h2>3. Cookies</h2>
        <p>
          We use essential cookies to keep you signed in and to remember choices such as this cookie consent and the
          state of the sidebar. We use no advertising or third-party tracking cookies.
        </p>
      </section>
      <section>
        <h2>4. Retention and deletion</h2>
        <p>
          Archiving your account hides it at once; you have 30 days to reactivate it before it is deleted. You can also
          delete all of your data permanently at any time from Settings. Backups and records the law requires may be
          kept for up to {RETENTION_MONTHS} months after deletion, then erased.
        </p>
      </section>
      <section>
        <h2>5. Your rights</h2>
        <p>
          You can see, correct, export and delete your data. The service is for people aged {MINIMUM_AGE} and over. This
          policy is governed by the laws of {GOVERNING_LAW}, and you may complain to the Information Commissioner&apos;s
          Office.
        </p>
      </section>
    </LegalPage>
  );
}
