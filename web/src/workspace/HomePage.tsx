import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import { Header } from '../shell/Header';
import { ErrorState, Loading } from '../ui/States';
import { navigate } from '../app/router';

/** The first page: the user's workspaces (opens the only one), and making one. */
export function HomePage() {
  const queryClient = useQueryClient();
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: async () => must(await api.GET('/api/auth/organization/list')) });
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/organization/create', { body: { name } })),
    onSuccess: async (ws) => {
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      navigate(`/w/${ws.id}`);
    },
  });
  useEffect(() => {
    if (workspaces.data?.length === 1) navigate(`/w/${workspaces.data[0]!.id}`, true);
  }, [workspaces.data]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <Header workspaceId={null} />
      <main id="main" tabIndex={-1} className="page">
        <h1>Workspaces</h1>
        {workspaces.isPending && <Loading what="workspaces" />}
        {workspaces.error && <ErrorState error={workspaces.error} />}
        {workspaces.data && workspaces.data.length > 0 && (
          <ul className="cards">
            {workspaces.data.map((w) => (
              <li key={w.id}>
                <a
                  href={`/w/${w.id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    navigate(`/w/${w.id}`);
                  }}
                >
                  {w.name}
                </a>
              </li>
            ))}
          </ul>
        )}
        <form onSubmit={onSubmit} className="inline-form">
          <label>
            New workspace
            <input value={name} onChange={(e) => setName(e.target.value)} required placeholder="Acme" />
          </label>
          <button type="submit" disabled={create.isPending}>
            Create workspace
          </button>
        </form>
        {create.error && <ErrorState error={create.error} />}
      </main>
    </>
  );
}
