// `npm run staff`: who may sign in to the back office at /manage (issue 34). The first owner comes from here; after
// that owners add and remove staff in /manage too. Like `npm run orders`, it goes through the running shop's grocer
// routes while a shop runs on the embedded database (one process may open it), and straight to the database when
// the shop is stopped or on DATABASE_URL; either way the change is written to the audit log with it.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { showControlCharacters } from '../src/lib/control-characters.ts';
import { AddStaffSchema, StaffRoleSchema, type StaffDto, type StaffListDto } from '../src/server/staff-schemas.ts';
import { mobile } from '../src/server/account-schemas.ts';
import { closePasswordHashing, COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword } from '../src/server/auth/passwords.ts';
import { readServerSettings } from '../src/server/config.ts';
import type { StaffRole } from '../src/server/db/schema.ts';
import { addStaff, changeStaff, listStaff, removeStaff, type AuditActor } from '../src/server/services/staff.ts';
import { CliError, grocerClient, openStoppedShop } from './lib/grocer-client.ts';
import { runningShop } from '../src/http/shop-file.ts';

const HELP = `npm run staff -- <command> [options]

Who may sign in to the back office (/manage). Works with the shop running (it asks the shop) or stopped (it opens
the database). Every change is written to the audit log.

Commands:
  list                                   everyone, with their role
  add --name "…" --phone <mobile> --role owner|staff|editor
                                         add someone; an owner also needs a password (asked for, never on the
                                         command line: typed twice at a terminal, else the first line of stdin,
                                         else STAFF_PASSWORD)
  role <mobile> --role owner|staff|editor
                                         change someone's role; they are signed out everywhere
  remove <mobile>                        remove someone; they are signed out everywhere

Roles: owner (everything, and the staff), staff (orders, issues, stock), editor (content pages).
Staff sign in with their mobile number and a texted code; an owner adds their password.

Reads DATA_DIR (default ./data) or DATABASE_URL, as the shop does.`;

interface Backend {
  list(): Promise<StaffDto[]>;
  add(input: { name: string; phone: string; role: StaffRole; password?: string }): Promise<StaffDto>;
  role(id: number, role: StaffRole, password?: string): Promise<StaffDto>;
  remove(id: number): Promise<StaffDto>;
  close(): Promise<void>;
}

/** The running shop's grocer routes, with the grocer's token (an owner's rights). */
function httpBackend(url: string, dataDir: string): Backend {
  const call = grocerClient(url, dataDir);
  return {
    list: async () => (await call<StaffListDto>('GET', 'Staff')).staff,
    add: (input) => call('POST', 'Staff', { json: input }),
    role: (id, role, password) => call('PUT', `Staff/${id}`, { json: { role, password } }),
    remove: (id) => call('DELETE', `Staff/${id}`),
    close: async () => {},
  };
}

/** The database itself (the shop stopped, or PostgreSQL); the audit log names the command line and its user. */
async function databaseBackend(): Promise<Backend> {
  const handle = await openStoppedShop(readServerSettings());
  const { db } = handle;
  const actor: AuditActor = { kind: 'command_line', label: `npm run staff (${os.userInfo().username})`, address: 'command line' };
  const hash = async (password: string | undefined) => {
    if (password === undefined) return undefined;
    if (isCommonPassword(password)) throw new CliError(COMMON_PASSWORD_MESSAGE);
    return hashPassword(password);
  };
  return {
    list: () => listStaff(db),
    add: async ({ password, ...input }) => addStaff(db, { ...input, passwordHash: await hash(password) }, { actor, action: 'staff add' }),
    role: async (id, role, password) => changeStaff(db, id, { role, passwordHash: await hash(password) }, { actor, action: 'staff role' }),
    remove: (id) => removeStaff(db, id, { actor, action: 'staff remove' }),
    close: async () => {
      await closePasswordHashing();
      await handle.close();
    },
  };
}

/** A line typed without echo at a terminal. */
function hiddenLine(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    process.stdout.write(prompt);
    const stdin = process.stdin;
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let typed = '';
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stdout.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new CliError('cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}

/** An owner's password: typed twice at a terminal, else the first line of stdin, else STAFF_PASSWORD. */
async function ownerPassword(): Promise<string> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await hiddenLine('Password for the owner (their second factor at sign-in): ');
    if ((await hiddenLine('The same password again: ')) !== password) throw new CliError('the two passwords differ; nothing was changed');
  } else if (process.env.STAFF_PASSWORD) {
    password = process.env.STAFF_PASSWORD;
  } else {
    let input = '';
    for await (const chunk of process.stdin) input += String(chunk);
    password = input.split(/\r?\n/)[0] ?? '';
  }
  const checked = AddStaffSchema.shape.password.safeParse(password);
  if (!checked.success || !password) throw new CliError(checked.success ? 'an owner needs a password' : checked.error.issues[0]!.message);
  return password;
}

function roleOf(raw: string | undefined, command: string): StaffRole {
  const checked = StaffRoleSchema.safeParse(raw);
  if (!checked.success) throw new CliError(`${command} needs --role owner, staff or editor`);
  return checked.data;
}

function phoneOf(raw: string | undefined, command: string): string {
  const checked = mobile.safeParse(raw ?? '');
  if (!checked.success) throw new CliError(`${command} needs a 10-digit mobile number, e.g. npm run staff -- ${command} 98765 43210`);
  return checked.data;
}

async function memberOf(backend: Backend, phone: string): Promise<StaffDto> {
  const member = (await backend.list()).find((m) => m.phone === phone);
  if (!member) throw new CliError(`no staff member has the number ${phone} (npm run staff -- list)`);
  return member;
}

const describe = (m: StaffDto) => `${m.name} (${m.role}, ${m.phone})`;

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { name: { type: 'string' }, phone: { type: 'string' }, role: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message} (see npm run staff -- --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return console.log(HELP);
  const [command = 'list', arg, ...extra] = positionals;
  if (extra.length > 0) throw new CliError(`unexpected '${extra.join(' ')}' (see npm run staff -- --help)`);
  if (!['list', 'add', 'role', 'remove'].includes(command)) throw new CliError(`unknown command '${command}': use list, add, role or remove (see npm run staff -- --help)`);

  // Everything given is checked before the shop or the database is touched.
  let add: { name: string; phone: string; role: StaffRole } | undefined;
  let target: string | undefined;
  let role: StaffRole | undefined;
  if (command === 'add') {
    if (arg !== undefined) throw new CliError(`add takes --name, --phone and --role (got '${arg}')`);
    const checked = AddStaffSchema.omit({ password: true }).safeParse({ name: values.name ?? '', phone: values.phone ?? '', role: values.role });
    if (!checked.success) throw new CliError(`add: ${checked.error.issues[0]!.message} (e.g. npm run staff -- add --name "Asha Rao" --phone 9876543210 --role owner)`);
    add = checked.data;
  } else if (command === 'role' || command === 'remove') {
    target = phoneOf(arg, command);
    if (command === 'role') role = roleOf(values.role, command);
  } else if (arg !== undefined) {
    throw new CliError(`list takes nothing after it (got '${arg}')`);
  }
  const password = add?.role === 'owner' || role === 'owner' ? await ownerPassword() : undefined;

  const settings = readServerSettings();
  const shop = settings.databaseUrl ? undefined : runningShop(settings.dataDir);
  const backend = shop ? httpBackend(shop.url, settings.dataDir) : await databaseBackend();
  try {
    if (add) {
      const added = await backend.add({ ...add, password });
      console.log(`Added ${describe(added)}. They sign in at /manage with their mobile number and a texted code${added.role === 'owner' ? ', and their password' : ''}.`);
    } else if (command === 'role') {
      const member = await memberOf(backend, target!);
      const changed = await backend.role(member.id, role!, password);
      console.log(`${changed.name} is now ${changed.role === 'owner' ? 'an owner' : changed.role === 'editor' ? 'an editor' : 'staff'}; they were signed out everywhere.`);
    } else if (command === 'remove') {
      const removed = await backend.remove((await memberOf(backend, target!)).id);
      console.log(`Removed ${describe(removed)}; they were signed out everywhere.`);
    } else {
      const staff = await backend.list();
      if (staff.length === 0) return console.log('Nobody may sign in to the back office yet. Add the first owner: npm run staff -- add --name "…" --phone … --role owner');
      for (const m of staff) console.log(`${m.phone}  ${m.role.padEnd(6)}  ${m.name}`);
    }
  } finally {
    await backend.close();
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  // One line: what went wrong (a number taken, the last owner, a shop not answering). Shown, never obeyed, by the terminal.
  console.error(`staff: ${showControlCharacters(error instanceof Error ? error.message : String(error))}`);
  process.exitCode = 1;
}
