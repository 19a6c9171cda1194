import { Command } from 'commander';
import { ADMIN_URN } from '../auth/principal.ts';
import { ROLES, parseRole } from '../auth/roles.ts';
import { createLocalUser } from '../auth/users.ts';
import { badRequest } from '../catalog/errors.ts';
import { readSecret } from './read-secret.ts';
import { withServices } from './token-commands.ts';

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
    const urn = await createLocalUser(s, { username: opts.username, password, role, actor: ADMIN_URN });
    process.stdout.write(`${urn}${role ? ` (${ROLES[role].name})` : ''}\n`);
  });
};

export function userCommands(): Command {
  const user = new Command('user').description('Local users who sign in to the console (run against the configured database)');
  user
    .command('create')
    .description('Create a user, or reset their password, and optionally set their role')
    .requiredOption('--username <name>', 'the user name; the user is urn:li:corpuser:<name>')
    .option('--password <password>', 'the password (visible in shell history; prefer --password-stdin)')
    .option('--password-stdin', 'read the password from standard input; on a terminal, asks for it without echo')
    .option('--role <role>', `one of ${Object.values(ROLES).map((r) => r.name).join(', ')} (or its urn)`)
    .addHelpText('after', "\nExamples:\n  $ printf '%s' \"$PASSWORD\" | almanac user create --username alice --password-stdin --role Editor\n  $ almanac user create --username bob --password 'correct horse' --role Reader")
    .action(createUser);
  return user;
}
