import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, session } from './api';
import { ErrorNote } from './components';
import { KeysPage } from './pages/keys';
import { RequestsPage } from './pages/requests';
import { SpacesPage } from './pages/spaces';
import { UsagePage } from './pages/usage';

const PAGES = { keys: 'API keys', requests: 'Requests', spaces: 'Spaces', usage: 'Usage' } as const;
type Page = keyof typeof PAGES;
const BASE = '/console/';

/** The page and open space named by the path: /console/spaces/alice. */
function fromPath(): { page: Page; space: string | null } {
  const [page, ...rest] = location.pathname.slice(BASE.length).split('/');
  const known = (page && page in PAGES ? page : 'keys') as Page;
  return { page: known, space: known === 'spaces' && rest.length && rest[0] !== undefined ? decodeURIComponent(rest.join('/')) : null };
}

/** The console: sign in with an account key (kept in this tab's session), then its four pages. */
export function App() {
  const [signedIn, setSignedIn] = useState(Boolean(session.key()));
  const [where, setWhere] = useState(fromPath);
  useEffect(() => {
    const onPop = () => setWhere(fromPath());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  useEffect(() => {
    document.title = `${PAGES[where.page]} · Engram console`;
    // Moving focus to the new page's heading tells keyboard and screen reader users where they are.
    const heading = document.querySelector<HTMLElement>('main h1');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus();
  }, [where, signedIn]);
  const go = (page: Page, space: string | null = null) => {
    history.pushState(null, '', `${BASE}${page}${space !== null ? `/${encodeURIComponent(space)}` : ''}`);
    setWhere({ page, space });
  };
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <strong class="brand">Engram</strong>
        <nav aria-label="Console">
          {(Object.keys(PAGES) as Page[]).map((page) => (
            <a
              key={page}
              href={`${BASE}${page}`}
              aria-current={where.page === page ? 'page' : undefined}
              onClick={(event) => {
                event.preventDefault();
                go(page);
              }}
            >
              {PAGES[page]}
            </a>
          ))}
        </nav>
        <button
          type="button"
          class="sign-out"
          onClick={() => {
            session.signOut();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main">
        {where.page === 'keys' && <KeysPage />}
        {where.page === 'requests' && <RequestsPage />}
        {where.page === 'spaces' && <SpacesPage open={where.space} onOpen={(space) => go('spaces', space)} />}
        {where.page === 'usage' && <UsagePage />}
      </main>
    </>
  );
}

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  return (
    <main id="main" class="sign-in">
      <h1>Engram console</h1>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setError(null);
          try {
            await api('GET', '/v1/account-keys', { key: key.trim() });
            session.signIn(key.trim());
            onSignedIn();
          } catch (caught) {
            setError(
              caught instanceof ApiError && caught.status === 403
                ? new Error('That key is limited to one space; sign in with an account key (egk_…).')
                : caught,
            );
          }
        }}
      >
        <label>
          Account key
          <input
            type="password"
            name="key"
            autoComplete="off"
            required
            value={key}
            onInput={(event) => setKey(event.currentTarget.value)}
          />
        </label>
        <p class="muted">The key stays in this browser tab's session and is forgotten when the tab closes.</p>
        <button type="submit">Sign in</button>
        <ErrorNote error={error} />
      </form>
    </main>
  );
}
