import type { ReactNode } from "react";
import { LogoHeader } from "#app/components/logo.tsx";
import { SiteFooter } from "#app/components/site-footer.tsx";

/** Frame of the public credential pages (a credential, the verifier). */
export function CredentialPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <LogoHeader />
      <main className="mx-auto grid w-full max-w-3xl flex-1 content-start gap-6 px-4 py-10">
        <h1 className="text-3xl font-bold tracking-tight break-words">{title}</h1>
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
