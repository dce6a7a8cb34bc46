import { useEffect, useState } from 'preact/hooks';
import { api, query } from '../api';
import { ErrorNote, Section, ShownOnce, Time } from '../components';

interface AccountKey {
  id: number;
  name: string | null;
  starts_with: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  current: boolean;
}
interface LimitedKey {
  id: number;
  name: string | null;
  space: string;
  starts_with: string;
  rpm: number;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** Account keys and keys limited to one space: make (shown once), list, revoke. */
export function KeysPage() {
  const [accountKeys, setAccountKeys] = useState<AccountKey[]>([]);
  const [limitedKeys, setLimitedKeys] = useState<LimitedKey[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [shown, setShown] = useState<{ label: string; secret: string } | null>(null);
  const [name, setName] = useState('');
  const [space, setSpace] = useState('');
  const [limitedName, setLimitedName] = useState('');
  const [rpm, setRpm] = useState('600');
  const [expires, setExpires] = useState('');
  const [spaceFilter, setSpaceFilter] = useState('');

  async function load() {
    try {
      setAccountKeys((await api('GET', '/v1/account-keys')).keys);
      setLimitedKeys((await api('GET', `/v1/keys${query({ space: spaceFilter })}`)).keys);
    } catch (caught) {
      setError(caught);
    }
  }
  useEffect(() => void load(), [spaceFilter]);

  async function run(action: () => Promise<void>) {
    setError(null);
    try {
      await action();
      await load();
    } catch (caught) {
      setError(caught);
    }
  }

  return (
    <div>
      <h1>API keys</h1>
      <ErrorNote error={error} />
      {shown && <ShownOnce label={shown.label} secret={shown.secret} />}
      <Section title="Account keys">
        <p class="muted">An account key reaches every space. Keep it on your servers.</p>
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            void run(async () => {
              const made = await api('POST', '/v1/account-keys', { body: { name: name || undefined } });
              setShown({ label: `Account key "${made.name ?? made.starts_with}" made.`, secret: made.key });
              setName('');
            });
          }}
        >
          <label>
            Name <input value={name} onInput={(event) => setName(event.currentTarget.value)} maxLength={100} />
          </label>
          <button type="submit">Make an account key</button>
        </form>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Starts with</th>
                <th>Made</th>
                <th>Last used</th>
                <th>State</th>
                <th>
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {accountKeys.map((key) => (
                <tr key={key.id}>
                  <td>{key.name ?? <span class="muted">unnamed</span>}</td>
                  <td>
                    <code>{key.starts_with}…</code>
                  </td>
                  <td>
                    <Time at={key.created_at} />
                  </td>
                  <td>
                    <Time at={key.last_used_at} />
                  </td>
                  <td>{key.revoked_at ? 'revoked' : key.current ? 'active (this session)' : 'active'}</td>
                  <td>
                    {!key.revoked_at && !key.current && (
                      <button
                        type="button"
                        class="danger"
                        aria-label={`Revoke account key ${key.name ?? key.starts_with}`}
                        onClick={() =>
                          confirm(`Revoke ${key.name ?? key.starts_with}? It stops at once.`) &&
                          void run(() => api('DELETE', `/v1/account-keys/${key.id}`))
                        }
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
      <Section title="Keys limited to one space">
        <p class="muted">A limited key reaches one user's space only, at its own requests a minute: hand it to that user's app.</p>
        <form
          class="grid-form"
          onSubmit={(event) => {
            event.preventDefault();
            void run(async () => {
              const made = await api('POST', '/v1/keys', {
                body: { space, name: limitedName || undefined, rpm: Number(rpm), expires_at: expires || undefined },
              });
              setShown({ label: `Key for space "${made.space}" made.`, secret: made.key });
              setLimitedName('');
            });
          }}
        >
          <label>
            Space <input required value={space} onInput={(event) => setSpace(event.currentTarget.value)} />
          </label>
          <label>
            Name <input value={limitedName} onInput={(event) => setLimitedName(event.currentTarget.value)} maxLength={100} />
          </label>
          <label>
            Requests a minute{' '}
            <input type="number" min={1} max={600} required value={rpm} onInput={(event) => setRpm(event.currentTarget.value)} />
          </label>
          <label>
            Works through (UTC date, optional){' '}
            <input type="date" value={expires} onInput={(event) => setExpires(event.currentTarget.value)} />
          </label>
          <button type="submit">Make a limited key</button>
        </form>
        <label class="filter">
          Show the keys of space{' '}
          <input value={spaceFilter} onChange={(event) => setSpaceFilter(event.currentTarget.value)} placeholder="every space" />
        </label>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Space</th>
                <th>Name</th>
                <th>Starts with</th>
                <th>rpm</th>
                <th>Expires</th>
                <th>Last used</th>
                <th>
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {limitedKeys.map((key) => (
                <tr key={key.id}>
                  <td>{key.space}</td>
                  <td>{key.name ?? <span class="muted">unnamed</span>}</td>
                  <td>
                    <code>{key.starts_with}…</code>
                  </td>
                  <td>{key.rpm}</td>
                  <td>{key.expires_at ? <Time at={key.expires_at} /> : <span class="muted">never</span>}</td>
                  <td>
                    <Time at={key.last_used_at} />
                  </td>
                  <td>
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Revoke key ${key.name ?? key.starts_with} of ${key.space}`}
                      onClick={() =>
                        confirm(`Revoke ${key.name ?? key.starts_with}? It stops at once.`) &&
                        void run(() => api('DELETE', `/v1/keys/${key.id}`))
                      }
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
              {!limitedKeys.length && (
                <tr>
                  <td colSpan={7} class="muted">
                    No limited keys.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </Section>
    </div>
  );
}
