import type { LucideIcon } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";

export function StatCards({ stats }: { stats: { label: string; value: number; hint?: string; icon: LucideIcon }[] }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-3">
      {stats.map(({ label, value, hint, icon: Icon }) => (
        <li key={label}>
          <Card>
            <CardHeader className="flex flex-row items-center justify-between pb-2">
              <CardTitle as="h2" className="text-sm font-medium text-muted-foreground">
                {label}
              </CardTitle>
              <Icon className="size-4 text-muted-foreground" aria-hidden />
            </CardHeader>
            <CardContent>
              <p className="text-3xl font-bold">{value}</p>
              {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}
