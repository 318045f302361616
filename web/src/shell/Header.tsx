import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useRef } from 'react';
import { api, must } from '../api/client';
import { navigate } from '../app/router';
import { NotificationBell } from '../notifications/Notifications';
import { SearchButton } from '../search/Search';
import { useSession } from '../api/session';
import { Button, Header as MenuHeader, Menu, MenuItem, MenuSection, MenuTrigger, Popover, Separator } from 'react-aria-components';
import { setTheme, useTheme, type ThemeChoice } from '../ui/theme';
import { Avatar } from '../ui/avatar';
import { ShortcutsSheet, showShortcuts } from './Shortcuts';
import { t as tr } from '../i18n';

/** The top bar: the workspace switcher, search (Ctrl-K), the notifications bell, the account (the user's name) and sign-out. */
export function Header({ workspaceId, title }: { workspaceId: string | null; title?: string }) {
  const queryClient = useQueryClient();
  const session = useSession();
  const bar = useRef<HTMLElement>(null);
  // The task panel starts below the bar (--topbar-height), so search and the bell stay in reach.
  useLayoutEffect(() => {
    const el = bar.current;
    if (!el) return;
    const set = () => document.documentElement.style.setProperty('--topbar-height', `${el.offsetHeight}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: async () => must(await api.GET('/api/auth/organization/list')) });
  const signOut = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/sign-out')),
    onSettled: async () => {
      queryClient.clear();
      navigate('/sign-in', true);
      await queryClient.invalidateQueries({ queryKey: ['session'] });
    },
  });
  return (
    <header className="topbar" ref={bar}>
      <a
        href="/"
        className="brand"
        onClick={(e) => {
          e.preventDefault();
          navigate('/');
        }}
      >
        Tandem
      </a>
      <label className="switcher">
        <span className="visually-hidden">{tr('account.header.workspace')}</span>
        <select value={workspaceId ?? ''} onChange={(e) => e.target.value && navigate(`/w/${e.target.value}`)} disabled={!workspaces.data?.length}>
          {!workspaceId && <option value="">{tr('account.header.chooseAWorkspace')}</option>}
          {workspaces.data?.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </label>
      {title && <h1 className="page-title">{title}</h1>}
      <div className="topbar-actions">
        {/* Without a workspace in the path, search the first one. */}
        <SearchButton workspaceId={workspaceId ?? workspaces.data?.[0]?.id ?? null} />
        <NotificationBell workspaceId={workspaceId} />
        {session.data && <AccountMenu name={session.data.user.name} onSignOut={() => signOut.mutate()} />}
      </div>
      <ShortcutsSheet />
    </header>
  );
}

const THEMES: ThemeChoice[] = ['system', 'light', 'dark'];

/** The account menu (React Aria Menu: arrow keys, Escape returns focus to its button): pages of the account, the theme, sign-out. */
function AccountMenu({ name, onSignOut }: { name: string; onSignOut: () => void }) {
  const theme = useTheme();
  return (
    <MenuTrigger>
      <Button className="account-button">
        <Avatar name={name} />
        <span className="visually-hidden">{tr('account.header.yourAccount')} </span>
        <span className="account-name">{name}</span>
      </Button>
      <Popover className="menu-popover" placement="bottom end">
        <Menu
          className="menu"
          onAction={(key) => {
            if (key === 'account') navigate('/account');
            else if (key === 'notifications') navigate('/account/notifications');
            else if (key === 'shortcuts') showShortcuts();
            else if (key === 'sign-out') onSignOut();
          }}
        >
          <MenuItem id="account" className="menu-item">
            {tr('account.header.account')}
          </MenuItem>
          <MenuItem id="notifications" className="menu-item">
            {tr('account.header.notificationSettings')}
          </MenuItem>
          <MenuItem id="shortcuts" className="menu-item">
            {tr('account.header.keyboardShortcuts')} <kbd className="shortcut">?</kbd>
          </MenuItem>
          <Separator className="menu-separator" />
          <MenuSection
            selectionMode="single"
            selectedKeys={[theme]}
            onSelectionChange={(keys) => {
              const [k] = [...(keys as Set<string>)];
              if (k) setTheme(k as ThemeChoice);
            }}
          >
            <MenuHeader className="menu-header">{tr('account.header.theme')}</MenuHeader>
            {THEMES.map((choice) => (
              <MenuItem key={choice} id={choice} className="menu-item">
                {tr(`account.header.theme.${choice}`)}
              </MenuItem>
            ))}
          </MenuSection>
          <Separator className="menu-separator" />
          <MenuItem id="sign-out" className="menu-item">
            {tr('account.header.signOut')}
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
