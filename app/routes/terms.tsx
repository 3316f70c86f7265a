import type { MetaFunction } from "@remix-run/cloudflare";
import { LegalPage } from "#app/components/legal-page.tsx";
import {
  GOVERNING_LAW,
  MEMBER_PRICE_LABEL,
  MINIMUM_AGE,
  PRODUCT_NAME,
  RETENTION_MONTHS,
} from "#app/utils/constants.ts";

export const meta: MetaFunction = () => [{ title: `Terms & Conditions · ${PRODUCT_NAME}` }];

export default function Terms() {
  return (
    <LegalPage title="Terms & Conditions" updated="1 November 2025">
      <section>
        <h2>1. About these terms</h2>
        <p>
          These terms govern your use of {PRODUCT_NAME}, a digital career passport in which people keep a lifelong
          record of their professional achievements and organisations recognise their members. By creating an account
          you agree to them.
        </p>
      </section>
      <section>
        <h2>2. Who can use {PRODUCT_NAME}</h2>
        <p>
          You must be at least {MINIMUM_AGE} years old to create an account. If you create an account for an
          organisation, you confirm that you are authorised to act for it.
        </p>
      </section>
      <section>
        <h2>3. Price and payment</h2>
        <p>
          The standard price is {MEMBER_PRICE_LABEL} per user per month, billed monthly for each member an organisation
          subscribes. Payments are taken by card through our payment provider; we never see or store your full card
          details. You can cancel a subscription at any time: it ends at once, no further payment is taken, and the
          current month is not refunded. Removing a member from the organisation cancels their subscription in the same
          way.
        </p>
        <p>
          <strong>Beta pilot terms.</strong> During the beta, beta clients may use {PRODUCT_NAME} free of charge under
          pilot terms. We will give you notice before any charge begins.
        </p>
      </section>
      <section>
        <h2>4. Your content</h2>
        <p>
          You own the achievements, biography, pictures and videos you add. You give us permission to store and show
          them as the service needs, including on your public passport, whose visibility you control. Do not upload
          anything that is unlawful or that you have no right to share.
        </p>
      </section>
      <section>
        <h2>5. Closing your account</h2>
        <p>
          You can archive your account from Settings at any time and reactivate it by signing in within 30 days, or
          delete all of your data permanently. Data may be kept for up to {RETENTION_MONTHS} months after deletion where
          the law or the security of the service requires it.
        </p>
      </section>
      <section>
        <h2>6. Governing law</h2>
        <p>
          These terms are governed by the laws of {GOVERNING_LAW}, and the courts of {GOVERNING_LAW} have exclusive
          jurisdiction over any dispute.
        </p>
      </section>
    </LegalPage>
  );
}
