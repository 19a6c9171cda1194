import { useState } from 'preact/hooks';
import { login } from '../api.ts';
import { ErrorBox } from '../components/error-box.tsx';
import { setToken } from '../session.ts';

/** Sign in with a local user's password, or by pasting a personal access token. */
export function LoginPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<unknown>(null);

  const withPassword = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const session = await login(username, password);
      setToken(session.accessToken);
      onSignedIn();
    } catch (err) {
      setError(err);
    }
  };
  const withToken = (e: Event) => {
    e.preventDefault();
    if (!pasted.trim()) return setError(new Error('Paste a personal access token first.'));
    setToken(pasted.trim());
    onSignedIn();
  };

  return (
    <main class="login">
      <h1>Almanac</h1>
      <form class="panel" onSubmit={withPassword} aria-label="Sign in with a password">
        <h2>Sign in</h2>
        <label>
          Username
          <input
            name="username"
            autocomplete="username"
            value={username}
            onInput={(e) => setUsername((e.target as HTMLInputElement).value)}
            required
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autocomplete="current-password"
            value={password}
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
            required
          />
        </label>
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
      <form class="panel" onSubmit={withToken} aria-label="Sign in with an access token">
        <h2>Or use an access token</h2>
        <label>
          Personal access token
          <input name="token" type="password" value={pasted} onInput={(e) => setPasted((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">Use token</button>
      </form>
      <ErrorBox error={error} />
      <section class="panel" aria-label="How to get an account">
        <h2>No account yet?</h2>
        <p>
          Accounts are made by whoever runs this server, on its machine (the same <code>ALMANAC_HOME</code> or <code>ALMANAC_DATABASE_URL</code>):
        </p>
        <pre>
          <code>printf '%s' "$PASSWORD" | almanac user create --username &lt;name&gt; --password-stdin --role Reader</code>
        </pre>
        <p>
          An administrator can also send you an invite link, or a personal access token made with <code>almanac token create</code> to paste above.
        </p>
      </section>
    </main>
  );
}
