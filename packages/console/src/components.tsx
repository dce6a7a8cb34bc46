import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from './api';

/** An error shown to the reader, with the request id that finds it in the log. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const requestId = error instanceof ApiError ? error.requestId : null;
  return (
    <p class="error" role="alert">
      {message}
      {requestId && <span class="muted"> ({requestId})</span>}
    </p>
  );
}

/** A key shown once, with a button that copies it. */
export function ShownOnce({ label, secret }: { label: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="shown-once" role="status">
      <p>
        <strong>{label}</strong> It is shown this once: copy it now.
      </p>
      <code class="secret" data-testid="new-key">
        {secret}
      </code>
      <button
        type="button"
        onClick={async () => {
          await navigator.clipboard?.writeText(secret).catch(() => undefined);
          setCopied(true);
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

/** A titled part of a page. */
export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A time as the reader's locale shows it (UTC in its tooltip). */
export function Time({ at }: { at: string | null }) {
  if (!at) return <span class="muted">never</span>;
  return (
    <time dateTime={at} title={at}>
      {new Date(at).toLocaleString()}
    </time>
  );
}
