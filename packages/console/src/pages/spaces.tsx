import { useEffect, useState } from 'preact/hooks';
import { ApiError, api } from '../api';
import { ErrorNote, Time } from '../components';
import { GraphView } from './graph';

interface Memory {
  id: number;
  text: string;
  kind: string;
  date: string;
  status: string;
  source: { id: string; kind: string; title: string | null };
  about: string[];
}
interface Detail {
  memory: Memory;
  sentence: { text: string };
  history: { event: string; at: string; text?: string; memory_id?: number; source_id?: string }[];
}
interface Source {
  id: string;
  kind: string;
  title: string | null;
  url: string | null;
  path: string | null;
  status: string;
  error: { type: string; message: string } | null;
  memories: number;
  tokens: number;
  created_at: string;
}
interface SpaceRow {
  name: string;
  created_at: string;
  memories: number;
  sources: number;
}

const KINDS = ['all', 'people', 'plan', 'pref', 'detail'] as const;
const spaceParam = (space: string) => `space=${encodeURIComponent(space)}`;

/** The account's spaces; choosing one opens it. */
export function SpacesPage({ open, onOpen }: { open: string | null; onOpen: (space: string | null) => void }) {
  const [spaces, setSpaces] = useState<SpaceRow[]>([]);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api('GET', '/v1/spaces?limit=200').then((page) => setSpaces(page.spaces), setError);
  }, []);
  if (open !== null) return <SpaceView space={open} onBack={() => onOpen(null)} />;
  return (
    <div>
      <h1>Spaces</h1>
      <p class="muted">Each end user of your app has a space of their own; the owner's own memory is the unnamed one.</p>
      <ErrorNote error={error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Space</th>
              <th>Memories</th>
              <th>Sources</th>
              <th>Made</th>
            </tr>
          </thead>
          <tbody>
            {spaces.map((row) => (
              <tr key={row.name}>
                <td>
                  <a
                    href={`/console/spaces/${encodeURIComponent(row.name)}`}
                    onClick={(event) => {
                      event.preventDefault();
                      onOpen(row.name);
                    }}
                  >
                    {row.name || '(owner)'}
                  </a>
                </td>
                <td>{row.memories}</td>
                <td>{row.sources}</td>
                <td>
                  <Time at={row.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** One space: memories, sources, files, graph and briefing. */
function SpaceView({ space, onBack }: { space: string; onBack: () => void }) {
  const [tab, setTab] = useState<'memories' | 'sources' | 'files' | 'graph' | 'briefing'>('memories');
  const tabs = ['memories', 'sources', 'files', 'graph', 'briefing'] as const;
  return (
    <div>
      <p>
        <button type="button" class="link" onClick={onBack}>
          ← All spaces
        </button>
      </p>
      <h1>Space {space || '(owner)'}</h1>
      <div role="tablist" aria-label="Parts of the space" class="tabs">
        {tabs.map((name) => (
          <button type="button" role="tab" key={name} aria-selected={tab === name} onClick={() => setTab(name)}>
            {name[0]!.toUpperCase() + name.slice(1)}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {tab === 'memories' && <MemoriesTab space={space} />}
        {tab === 'sources' && <SourcesTab space={space} />}
        {tab === 'files' && <FilesTab space={space} />}
        {tab === 'graph' && <GraphTab space={space} />}
        {tab === 'briefing' && <BriefingTab space={space} />}
      </div>
    </div>
  );
}

function MemoriesTab({ space }: { space: string }) {
  const [kind, setKind] = useState<(typeof KINDS)[number]>('all');
  const [search, setSearch] = useState('');
  const [searched, setSearched] = useState('');
  const [memories, setMemories] = useState<Memory[]>([]);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [error, setError] = useState<unknown>(null);
  const [opened, setOpened] = useState<number | null>(null);

  useEffect(() => {
    setError(null);
    const request = searched
      ? api('POST', '/v1/search', { body: { q: searched, kind, space, limit: 50 } })
      : api('GET', `/v1/memories?kind=${kind}&limit=100&${spaceParam(space)}`);
    // Only the latest listing or search is shown, whichever answers first.
    let latest = true;
    request.then(
      (page) => {
        if (latest) {
          setMemories(page.memories);
          setCounts(page.counts ?? {});
        }
      },
      (caught) => latest && setError(caught),
    );
    return () => {
      latest = false;
    };
  }, [kind, searched]);

  return (
    <div>
      <form
        class="row"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setSearched(search.trim());
        }}
      >
        <label>
          Search memories{' '}
          <input type="search" name="memory-search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
        </label>
        <label>
          Kind
          <select value={kind} onChange={(event) => setKind(event.currentTarget.value as (typeof KINDS)[number])}>
            {KINDS.map((name) => (
              <option value={name} key={name}>
                {name}
                {counts[name] !== undefined ? ` (${counts[name]})` : ''}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Search</button>
        {searched && (
          <button
            type="button"
            onClick={() => {
              setSearch('');
              setSearched('');
            }}
          >
            Clear
          </button>
        )}
      </form>
      <ErrorNote error={error} />
      <ul class="memories">
        {memories.map((memory) => (
          <li key={memory.id} class={`memory status-${memory.status}`} data-memory-id={memory.id}>
            <button
              type="button"
              class="link"
              aria-expanded={opened === memory.id}
              onClick={() => setOpened(opened === memory.id ? null : memory.id)}
            >
              {memory.text}
            </button>
            <span class="badges">
              <span class="badge">{memory.kind}</span>
              {memory.status !== 'current' && <span class={`badge badge-${memory.status}`}>{memory.status}</span>}
            </span>
            {opened === memory.id && (
              <MemoryDetail
                space={space}
                id={memory.id}
                // Kept in view once corrected, marked wrong; gone once deleted.
                onCorrected={() =>
                  setMemories((shown) => shown.map((item) => (item.id === memory.id ? { ...item, status: 'wrong' } : item)))
                }
                onDeleted={() => setMemories((shown) => shown.filter((item) => item.id !== memory.id))}
              />
            )}
          </li>
        ))}
        {!memories.length && <li class="muted">No memories{searched ? ' match' : ''}.</li>}
      </ul>
    </div>
  );
}

function MemoryDetail({
  space,
  id,
  onCorrected,
  onDeleted,
}: {
  space: string;
  id: number;
  onCorrected: () => void;
  onDeleted: () => void;
}) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [correction, setCorrection] = useState('');
  const [error, setError] = useState<unknown>(null);
  const load = () => api('GET', `/v1/memories/${id}?${spaceParam(space)}`).then(setDetail, setError);
  useEffect(() => void load(), [id]);
  if (!detail) return <ErrorNote error={error} />;
  const { memory } = detail;
  return (
    <div class="detail">
      <dl>
        <dt>Status</dt>
        <dd data-testid="memory-status">{memory.status}</dd>
        <dt>Said on</dt>
        <dd>{memory.date}</dd>
        <dt>Source</dt>
        <dd>
          <code>{memory.source.id}</code> {memory.source.kind}
          {memory.source.title ? `: ${memory.source.title}` : ''}
        </dd>
        <dt>Sentence</dt>
        <dd>
          <q>{detail.sentence.text}</q>
        </dd>
        {memory.about.length > 0 && (
          <>
            <dt>About</dt>
            <dd>{memory.about.join(', ')}</dd>
          </>
        )}
      </dl>
      <h3>History</h3>
      <ol class="history">
        {detail.history.map((event, index) => (
          <li key={index}>
            <Time at={event.at} /> {event.event}
            {event.text ? `: ${event.text}` : ''}
            {event.memory_id ? ` (memory ${event.memory_id})` : ''}
          </li>
        ))}
      </ol>
      <ErrorNote error={error} />
      {memory.status !== 'wrong' && (
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            setError(null);
            api('PATCH', `/v1/memories/${id}`, { body: { text: correction, space } }).then(() => {
              setCorrection('');
              void load();
              onCorrected();
            }, setError);
          }}
        >
          <label>
            What is right{' '}
            <input required name="correction" value={correction} onInput={(event) => setCorrection(event.currentTarget.value)} />
          </label>
          <button type="submit">Correct</button>
        </form>
      )}
      <button
        type="button"
        class="danger"
        onClick={() => {
          if (!confirm('Delete this memory?')) return;
          api('DELETE', `/v1/memories/${id}?${spaceParam(space)}`).then(onDeleted, setError);
        }}
      >
        Delete memory
      </button>
    </div>
  );
}

function SourcesTab({ space }: { space: string }) {
  const [sources, setSources] = useState<Source[]>([]);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void api('GET', `/v1/sources?limit=100&${spaceParam(space)}`).then((page) => setSources(page.sources), setError), []);
  return (
    <div class="table-wrap">
      <ErrorNote error={error} />
      <table>
        <thead>
          <tr>
            <th>Source</th>
            <th>Kind</th>
            <th>Status</th>
            <th>Memories</th>
            <th>Tokens</th>
            <th>Added</th>
          </tr>
        </thead>
        <tbody>
          {sources.map((source) => (
            <tr key={source.id}>
              <td>{source.title ?? source.path ?? source.url ?? <code>{source.id}</code>}</td>
              <td>{source.kind}</td>
              <td>
                <span class={`badge badge-${source.status}`}>{source.status}</span>
                {source.error && (
                  <div class="error-text">
                    {source.error.type}: {source.error.message}
                  </div>
                )}
              </td>
              <td>{source.memories}</td>
              <td>{source.tokens}</td>
              <td>
                <Time at={source.created_at} />
              </td>
            </tr>
          ))}
          {!sources.length && (
            <tr>
              <td colSpan={6} class="muted">
                No sources.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

interface TreeNode {
  name: string;
  children: Map<string, TreeNode>;
  size?: number;
}

function FilesTab({ space }: { space: string }) {
  const [tree, setTree] = useState<TreeNode | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api('GET', `/v1/files?prefix=/&limit=200&${spaceParam(space)}`).then((page) => {
      const root: TreeNode = { name: '/', children: new Map() };
      for (const file of page.files as { path: string; size: number }[]) {
        let node = root;
        const parts = file.path.split('/').filter(Boolean);
        parts.forEach((part, index) => {
          if (!node.children.has(part)) node.children.set(part, { name: part, children: new Map() });
          node = node.children.get(part)!;
          if (index === parts.length - 1) node.size = file.size;
        });
      }
      setTree(root);
    }, setError);
  }, []);
  const render = (node: TreeNode) => (
    <ul>
      {[...node.children.values()].map((child) => (
        <li key={child.name}>
          {child.children.size ? (
            <details open>
              <summary>{child.name}/</summary>
              {render(child)}
            </details>
          ) : (
            <span>
              {child.name} <span class="muted">{child.size} bytes</span>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
  return (
    <div class="tree">
      <ErrorNote error={error} />
      {tree && (tree.children.size ? render(tree) : <p class="muted">No files.</p>)}
    </div>
  );
}

/** An endpoint this server does not have yet is a message, not an error. */
function NotAvailable({ what }: { what: string }) {
  return (
    <p class="notice" role="status">
      {what} is not available on this server.
    </p>
  );
}

function GraphTab({ space }: { space: string }) {
  const [graph, setGraph] = useState<any>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void api('GET', `/v1/graph?${spaceParam(space)}`).then(setGraph, setError), []);
  if (error instanceof ApiError && error.status === 404 && error.type === 'not_found' && /No route/.test(error.message))
    return <NotAvailable what="The graph" />;
  if (error) return <ErrorNote error={error} />;
  if (!graph) return <p class="muted">Loading…</p>;
  return <GraphView nodes={graph.nodes} edges={graph.edges} />;
}

function BriefingTab({ space }: { space: string }) {
  const [project, setProject] = useState('');
  const [briefing, setBriefing] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const missing = error instanceof ApiError && error.status === 404 && /No route/.test(error.message);
  return (
    <div>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          setError(null);
          api('POST', '/v1/briefing', { body: { project: project || undefined, space } }).then(
            (answer) => setBriefing(answer.briefing),
            setError,
          );
        }}
      >
        <label>
          Project <input value={project} onInput={(event) => setProject(event.currentTarget.value)} placeholder="any" />
        </label>
        <button type="submit">Brief me</button>
      </form>
      {missing ? <NotAvailable what="The briefing" /> : <ErrorNote error={error} />}
      {briefing !== null && <pre class="briefing">{briefing || 'Nothing to brief yet.'}</pre>}
    </div>
  );
}
