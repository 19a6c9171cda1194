import './styles.css';
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { EntityPicker } from './components/entity-picker.tsx';
import { entityHref } from './entity-kinds.ts';
import { canManagePolicies, canManageRetention, canManageUsers, canManageWebhooks, canViewTimeseries, fetchMe, type Me } from './me.ts';
import { DatasetPage } from './pages/dataset.tsx';
import { DatasetsPage } from './pages/datasets.tsx';
import { EntityPage } from './pages/entity.tsx';
import { LineagePage } from './pages/lineage.tsx';
import { SearchPage, searchHref } from './pages/search.tsx';
import { LoginPage } from './pages/login.tsx';
import { PoliciesPage } from './pages/policies.tsx';
import { RetentionPage } from './pages/retention.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { TimeseriesPage } from './pages/timeseries.tsx';
import { TokensPage } from './pages/tokens.tsx';
import { UsersPage } from './pages/users.tsx';
import { clearToken, getToken } from './session.ts';

/**
 * The hash route: #/datasets[?filters], #/search[?query&type&filters], #/dataset/<urn>[?tab=history],
 * #/entity/<urn>[?tab=history], #/lineage/<urn>?up=N&down=N, #/timeseries, #/tokens, #/users, #/policies,
 * #/retention, #/webhooks, #/login. `visit` counts
 * navigations, so following a link to the page already shown (Datasets in the menu) starts it afresh; the list's
 * own address updates (history.replaceState) are no navigation.
 */
function useRoute(): { route: string; visit: number } {
  const [state, setState] = useState({ route: location.hash || '#/datasets', visit: 0 });
  useEffect(() => {
    const on = () => setState((s) => ({ route: location.hash || '#/datasets', visit: s.visit + 1 }));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return state;
}

/** A page address's urn (encoded in the path) and its parameters (after the ?). */
function pageOf(route: string, prefix: string): { urn: string; params: URLSearchParams } {
  const [path, query] = route.slice(prefix.length).split('?');
  return { urn: decodeURIComponent(path ?? ''), params: new URLSearchParams(query ?? '') };
}

/** True when a key press is typing into something, where `/` is a character and not the search shortcut. */
const typing = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** The header's search box: suggestions of every type while typing, Enter for the full search page; `/` focuses it. */
function HeaderSearch() {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target)) {
        e.preventDefault();
        input.current?.focus();
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  return (
    <div class="header-search" role="search">
      <EntityPicker
        id="global-search"
        inputRef={input}
        label="Search the catalog"
        placeholder="Search (press /)"
        onPick={(e) => (location.hash = entityHref(e.urn))}
        onEnter={(text) => (location.hash = searchHref({ query: text }))}
      />
    </div>
  );
}

/** What a page the caller may not use says instead of an authorization error. */
function AdminsOnly({ what }: { what: string }) {
  return (
    <main>
      <h1>{what}</h1>
      <p>Admins only: your role does not include this page. Ask an administrator if you need it.</p>
    </main>
  );
}

function App() {
  const { route, visit } = useRoute();
  const [me, setMe] = useState<Me | null>(null);
  const [signedIn, setSignedIn] = useState(getToken() !== null);

  useEffect(() => {
    if (signedIn) fetchMe().then(setMe, () => setMe(null));
  }, [signedIn]);

  if (!signedIn || route === '#/login') {
    return (
      <LoginPage
        onSignedIn={() => {
          setSignedIn(true);
          location.hash = '#/datasets';
        }}
      />
    );
  }
  const signOut = () => {
    clearToken();
    setMe(null);
    setSignedIn(false);
  };
  const link = (href: string, label: string) => (
    <a href={href} aria-current={route.startsWith(href) ? 'page' : undefined}>
      {label}
    </a>
  );
  // Until the caller's privileges are known, nothing that needs them is shown or requested.
  const timeseries = me !== null && canViewTimeseries(me);
  let page;
  if (route.startsWith('#/dataset/')) {
    const { urn, params } = pageOf(route, '#/dataset/');
    page = <DatasetPage key={`${visit} ${urn}`} urn={urn} tab={params.get('tab') ?? 'overview'} />;
  } else if (route.startsWith('#/entity/')) {
    const { urn, params } = pageOf(route, '#/entity/');
    page = <EntityPage key={urn} urn={urn} tab={params.get('tab') ?? 'overview'} />;
  } else if (route.startsWith('#/lineage/')) {
    const { urn, params } = pageOf(route, '#/lineage/');
    page = <LineagePage key={urn} urn={urn} initial={params} />;
  } else if (route.startsWith('#/search')) page = <SearchPage key={visit} initial={new URLSearchParams(route.split('?')[1] ?? '')} />;
  else if (route.startsWith('#/timeseries'))
    page = me === null ? null : timeseries ? <TimeseriesPage me={me} /> : <AdminsOnly what="Timeseries indices" />;
  else if (route.startsWith('#/tokens')) page = <TokensPage me={me} />;
  else if (route.startsWith('#/users')) page = me === null ? null : canManageUsers(me) ? <UsersPage /> : <AdminsOnly what="Users" />;
  else if (route.startsWith('#/policies')) page = me === null ? null : canManagePolicies(me) ? <PoliciesPage /> : <AdminsOnly what="Policies" />;
  else if (route.startsWith('#/retention')) page = me === null ? null : canManageRetention(me) ? <RetentionPage /> : <AdminsOnly what="Retention" />;
  else if (route.startsWith('#/webhooks')) page = me === null ? null : canManageWebhooks(me) ? <WebhooksPage /> : <AdminsOnly what="Webhooks" />;
  else page = <DatasetsPage key={visit} me={me} initial={new URLSearchParams(route.split('?')[1] ?? '')} />;
  return (
    <>
      <header>
        <a class="brand" href="#/datasets">
          Almanac
        </a>
        <nav aria-label="Main">
          {link('#/datasets', 'Datasets')}
          {link('#/search', 'Search')}
          {timeseries ? (
            link('#/timeseries', 'Timeseries')
          ) : (
            <span class="nav-locked" title="Timeseries indices: Admins only">
              Timeseries <small>Admins only</small>
            </span>
          )}
          {link('#/tokens', 'Tokens')}
          {/* Admin pages are offered only to those who may use them. */}
          {canManageUsers(me) && link('#/users', 'Users')}
          {canManagePolicies(me) && link('#/policies', 'Policies')}
          {canManageRetention(me) && link('#/retention', 'Retention')}
          {canManageWebhooks(me) && link('#/webhooks', 'Webhooks')}
        </nav>
        <HeaderSearch />
        <span class="who">{me?.username}</span>
        <button onClick={signOut}>Sign out</button>
      </header>
      {page}
    </>
  );
}

render(<App />, document.getElementById('app')!);
