import type { ComponentChildren } from 'preact';
import { Logo } from './logo.tsx';

/** The centred card around the registration and login forms. */
export function AuthCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children: ComponentChildren;
}) {
  return (
    <main class="auth-page">
      <div class="auth-card">
        <div class="auth-brand">
          <Logo />
          <span>Pipit</span>
        </div>
        <h1>{title}</h1>
        <p class="muted">{intro}</p>
        {children}
      </div>
    </main>
  );
}
