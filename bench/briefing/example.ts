/**
 * Writes docs/briefing.md: a realistic project's notes, saved on a real Engram (in-process,
 * in-memory PGlite, one learning worker), and the briefing that server then produced.
 *
 *   npm run docs:briefing
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../packages/server/src/config.js';
import { startServer } from '../../packages/server/src/server.js';

const KEY = 'egk_briefing_example_key_0123456789abcdefghij';
const SPACE = 'mia';
const DAY = 86_400_000;

const projectNotes = `# Project Kestrel

Goal: launch the booking app for the bike repair shop before the spring rush.
Our focus this week is the calendar sync with the workshop tablet.

## Decisions
- Bookings need a deposit of ten euros.
- We use the shop's existing card terminal account.

## TODO
- [ ] Confirm opening hours for the Saturday slots
- [ ] Get the privacy notice reviewed
- [x] Choose the app icon

## Next steps
- Send the beta build to three regular customers
- Write the cancellation policy text

## Rules
- Never push a build to the store on a Friday afternoon, because nobody is around to fix it.
- To release a beta, first bump the build number and then upload it to the test channel.

We are blocked on the app store approving the developer account.
Maybe we'll add a loyalty card later, we'll see.`;

/** A meeting a few days ago and a chat after it, dated relative to today so the example stays current. */
function meetingNotes(day: string): string {
  return `Weekly sync ${day} (Project Kestrel)

Attendees: Mia, Jonas, Tariq

Decisions
- The booking window opens fourteen days ahead.
- Tariq owns the privacy notice.

Discussion
We agreed that cancellations within 24 hours keep the deposit.
Tariq will send the draft privacy notice to the lawyer by Friday.
Lesson learned: share the agenda a day before the meeting.
Jonas asked whether the shop has wifi in the back room.
If the vendor raises the limits, the sync could run every minute.`;
}

function chat(at: Date) {
  const said = (minutes: number) => new Date(at.getTime() + minutes * 60_000).toISOString();
  return [
    {
      role: 'user',
      name: 'Mia',
      content: 'Project: Kestrel. Our goal is now fifty bookings in the first month after launch.',
      at: said(0),
    },
    { role: 'user', name: 'Mia', content: "I'll draft the launch post for the shop's page tomorrow.", at: said(1) },
    { role: 'user', name: 'Jonas', content: 'We finished the opening hours for the Saturday slots.', at: said(2) },
    { role: 'user', name: 'Jonas', content: 'Remind me to order the window sticker when we talk about the launch.', at: said(3) },
    {
      role: 'user',
      name: 'Mia',
      content: 'Always test a release on the old workshop tablet too, since the mechanics still use it.',
      at: said(4),
    },
    {
      role: 'user',
      name: 'Jonas',
      content: 'Jonas repaired forty bikes last month and wants the app to show the waiting time.',
      at: said(5),
    },
  ];
}

async function main() {
  const server = await startServer(
    loadConfig({ ENGRAM_PORT: '0', ENGRAM_DATA_DIR: 'memory://', ENGRAM_BOOTSTRAP_KEY: KEY, ENGRAM_POLL_MS: '50' }),
  );
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'X-Memory-Space': SPACE },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json() as Promise<any>;
  };
  const learned = async (source: { id: string }) => {
    const waited = await call('GET', `/v1/sources/${source.id}?wait=60`);
    if (waited.source.status !== 'finished') throw new Error(`not learned: ${JSON.stringify(waited)}`);
  };
  try {
    const now = new Date();
    const meetingDay = new Date(now.getTime() - 3 * DAY).toISOString().slice(0, 10);
    const file = await call('PUT', '/v1/files', { path: '/kestrel/plan.md', text: projectNotes, labels: { project: 'Kestrel' } });
    await learned(file.source);
    const meeting = await call('POST', '/v1/memories', { text: meetingNotes(meetingDay) });
    await learned(meeting.source);
    // The chat comes after the plan was saved, so what it says is newer.
    const chatAt = new Date();
    const conversation = await call('POST', '/v1/memories', { messages: chat(chatAt), title: 'Launch planning chat' });
    await learned(conversation.source);
    const request = { project: 'Kestrel', cue: 'the launch post and the privacy notice', budget_chars: 2500 };
    const briefing = await call('POST', '/v1/briefing', request);

    const page = `# Briefings: an example

This page is written by \`npm run docs:briefing\` (bench/briefing/example.ts): it starts a real
Engram (in-memory store, offline learner, no model), saves the three sources below in the space
\`${SPACE}\`, and asks for a briefing. Everything under "Output" is what that server answered on
${now.toISOString().slice(0, 10)}; nothing is edited by hand.

## Input

A project plan kept as a file, \`PUT /v1/files\` with \`labels: { "project": "Kestrel" }\`:

\`\`\`markdown
${projectNotes}
\`\`\`

Meeting notes of a sync three days earlier, \`POST /v1/memories\` with \`text\` (the project and the
episode's date come from the heading):

\`\`\`text
${meetingNotes(meetingDay)}
\`\`\`

A chat after the plan was saved, \`POST /v1/memories\` with \`messages\` (each with \`name\` and \`at\`) and
the title "Launch planning chat":

\`\`\`json
${JSON.stringify(chat(chatAt), null, 2)}
\`\`\`

## Output

\`POST /v1/briefing\` with

\`\`\`json
${JSON.stringify(request)}
\`\`\`

answered this \`briefing\` (${briefing.briefing.length} characters of the 2,500 allowed):

\`\`\`text
${briefing.briefing}
\`\`\`

Its \`now\` (one StateOut per project shown):

\`\`\`json
${JSON.stringify(briefing.now, null, 2)}
\`\`\`

Its \`due\` (IntentionOut):

\`\`\`json
${JSON.stringify(briefing.due, null, 2)}
\`\`\`

Its \`lessons\` (LessonOut) and \`episodes\` (EpisodeOut):

\`\`\`json
${JSON.stringify({ lessons: briefing.lessons, episodes: briefing.episodes }, null, 2)}
\`\`\`

What to notice:

- The project comes from three places: the file's \`project\` label, the meeting's heading, and the
  chat's "Project: Kestrel".
- The chat's newer goal replaced the plan's; "We finished the opening hours for the Saturday
  slots" closed the plan's open item; "Maybe we'll add a loyalty card later, we'll see" and the
  hypothetical about the vendor taught nothing, and neither did Jonas's question.
- "by Friday" and "tomorrow" were resolved against when they were said; the intention whose cue is
  "the launch" is shown because the cue names the launch, and what bears on the cue leads each part.
- The same request with a smaller \`budget_chars\` gives a text whose lines are all in this one.
`;
    writeFileSync(fileURLToPath(new URL('../../docs/briefing.md', import.meta.url)), page);
    console.log(briefing.briefing);
  } finally {
    await server.close();
  }
}

await main();
