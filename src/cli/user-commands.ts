import { Command } from 'commander';
import { ADMIN_URN, corpUserUrn, type Principal } from '../auth/principal.ts';
import { ROLES, parseRole } from '../auth/roles.ts';
import { createLocalUser } from '../auth/users.ts';
import { badRequest } from '../catalog/errors.ts';
import { loadConfig } from '../config.ts';
import { readSecret } from './read-secret.ts';
import { withServices } from './token-commands.ts';

/** The CLI runs against the database as its operator, with the built-in administrator's rights. */
const OPERATOR: Principal = { actorUrn: ADMIN_URN, kind: 'system' };

/** A user given by name or by urn. */
const userUrnOf = (user: string): string => (user.startsWith('urn:li:corpuser:') ? user : corpUserUrn(user));

interface CreateOptions {
  username: string;
  password?: string;
  passwordStdin?: boolean;
  role?: string;
}

const createUser = async (opts: CreateOptions) => {
  if (opts.password !== undefined && opts.passwordStdin) throw badRequest('give either --password or --password-stdin, not both');
  const password = opts.passwordStdin ? await readSecret('Password') : opts.password;
  if (password === undefined) throw badRequest('a password is required: --password-stdin (recommended) or --password');
  const role = opts.role === undefined ? undefined : parseRole(opts.role);
  await withServices(async (s) => {
    const urn = await createLocalUser(
      { ...s.store, catalog: s.catalog },
      { username: opts.username, password, role, actor: ADMIN_URN },
      loadConfig().passwords,
    );
    process.stdout.write(`${urn}${role ? ` (${ROLES[role].name})` : ''}\n`);
  });
};

const listUsers = (opts: { query?: string; start: string; count: string; json?: boolean }) =>
  withServices(async (s) => {
    const page = await s.users.list({ start: Number(opts.start), count: Number(opts.count), query: opts.query });
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
      return;
    }
    for (const urn of page.urns) {
      const status = (await s.catalog.getAspect(urn, 'corpUserStatus'))?.value.status;
      const role = await s.roles.roleOf(urn);
      process.stdout.write(`${urn}\t${typeof status === 'string' ? status : '-'}\t${role ?? '-'}\n`);
    }
    process.stderr.write(`${page.start + page.count} of ${page.total} users\n`);
  });

const setStatus = (status: 'ACTIVE' | 'SUSPENDED') => (user: string) =>
  withServices(async (s) => {
    const urn = await s.users.setStatus(OPERATOR, userUrnOf(user), status);
    process.stdout.write(`${urn} ${status}\n`);
  });

const removeUser = (user: string) =>
  withServices(async (s) => {
    const urn = userUrnOf(user);
    await s.users.remove(OPERATOR, urn);
    process.stdout.write(`${urn} removed\n`);
  });

const invite = (opts: { role?: string; regenerate?: boolean }) =>
  withServices(async (s) => {
    const role = opts.role === undefined ? null : parseRole(opts.role);
    process.stdout.write(`${await s.users.inviteToken(OPERATOR, role, opts.regenerate === true)}\n`);
  });

export function userCommands(): Command {
  const user = new Command('user').description('Local users who sign in to the console (run against the configured database)');
  user
    .command('create')
    .description('Create a user, or reset their password, and optionally set their role')
    .requiredOption('--username <name>', 'the user name; the user is urn:li:corpuser:<name>')
    .option('--password <password>', 'the password (visible in shell history; prefer --password-stdin)')
    .option('--password-stdin', 'read the password from standard input; on a terminal, asks for it without echo')
    .option(
      '--role <role>',
      `one of ${Object.values(ROLES)
        .map((r) => r.name)
        .join(', ')} (or its urn)`,
    )
    .addHelpText(
      'after',
      "\nExamples:\n  $ printf '%s' \"$PASSWORD\" | almanac user create --username alice --password-stdin --role Editor\n  $ almanac user create --username bob --password 'correct horse' --role Reader",
    )
    .action(createUser);
  user
    .command('list')
    .description('List users: urn, status (ACTIVE, SUSPENDED or -) and role')
    .option('--query <text>', 'only users matching this full-text query')
    .option('--start <n>', 'offset of the first user', '0')
    .option('--count <n>', 'users at most', '100')
    .option('--json', 'print the page as JSON')
    .action(listUsers);
  user
    .command('suspend')
    .description('Suspend a user: their tokens and sessions stop working at once (until reactivated)')
    .argument('<user>', 'user name or urn:li:corpuser:<name>')
    .action(setStatus('SUSPENDED'));
  user
    .command('reactivate')
    .description('Reactivate a suspended user: their tokens and sessions work again')
    .argument('<user>', 'user name or urn:li:corpuser:<name>')
    .action(setStatus('ACTIVE'));
  user
    .command('remove')
    .description('Remove a user with their tokens, sessions, role and password; what they own stays')
    .argument('<user>', 'user name or urn:li:corpuser:<name>')
    .action(removeUser);
  user
    .command('invite')
    .description('Print the invite token for a role, to sign up with at POST /signUp')
    .option(
      '--role <role>',
      `the role new users get: ${Object.values(ROLES)
        .map((r) => r.name)
        .join(', ')} (none if omitted)`,
    )
    .option('--regenerate', 'make a new token; the previous one stops working')
    .action(invite);
  return user;
}
