import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import { Header } from '../shell/Header';
import { Empty, ErrorState, Loading } from '../ui/States';
import { usePermissions } from '../api/permissions';
import { navigate } from '../app/router';
import { useProjects } from '../api/workspace-queries';
import { WorkspaceSettings } from './WorkspaceSettings';
import { AppLink } from '../ui/AppLink';
import { t } from '../i18n';

/** A workspace's projects, and making one (when the caller's roles allow it). */
export function WorkspacePage({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const can = usePermissions(workspaceId);
  const projects = useProjects(workspaceId);
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: async () => must(await api.POST('/api/project', { body: { name, workspaceId } })),
    onSuccess: async (p) => {
      setName('');
      await queryClient.invalidateQueries({ queryKey: ['projects', workspaceId] });
      navigate(`/w/${workspaceId}/p/${p.id}`);
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <Header workspaceId={workspaceId} />
      <main id="main" tabIndex={-1} className="page">
        <div className="page-head">
          <h1>{t('people.workspacePage.projects')}</h1>
          <AppLink to={`/w/${workspaceId}/my-work`}>{t('people.workspacePage.myWork')}</AppLink>
          <a
            href={`/w/${workspaceId}/members`}
            onClick={(e) => {
              e.preventDefault();
              navigate(`/w/${workspaceId}/members`);
            }}
          >
            {t('people.workspacePage.people')}
          </a>
        </div>
        {projects.isPending && <Loading what={t('people.workspacePage.projects2')} />}
        {projects.error && <ErrorState error={projects.error} />}
        {projects.data?.length === 0 && <Empty>{t('people.workspacePage.noProjectsYet')}</Empty>}
        {projects.data && projects.data.length > 0 && (
          <ul className="cards">
            {projects.data.map((p) => (
              <li key={p.id}>
                <a
                  href={`/w/${workspaceId}/p/${p.id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    navigate(`/w/${workspaceId}/p/${p.id}`);
                  }}
                >
                  <span className="key">{p.slug}</span> {p.name}
                </a>
              </li>
            ))}
          </ul>
        )}
        {can('project', 'create') && (
          <form onSubmit={onSubmit} className="inline-form">
            <label>
              {t('people.workspacePage.newProject')}
              <input value={name} onChange={(e) => setName(e.target.value)} required placeholder={t('people.workspacePage.website')} />
            </label>
            <button type="submit" disabled={create.isPending}>
              {t('people.workspacePage.createProject')}
            </button>
          </form>
        )}
        {create.error && <ErrorState error={create.error} />}
        <WorkspaceSettings workspaceId={workspaceId} canRename={can('organization', 'update')} canDelete={can('organization', 'delete')} />
      </main>
    </>
  );
}
