import { preparedName, PreparedShapes } from './sql';

describe('PreparedShapes', () => {
  it('names each shape by its text, the same name every time, and runs shapes past the cap unnamed', () => {
    const shapes = new PreparedShapes('task_update', 2);
    const a = shapes.nameFor('UPDATE task SET title = $3');
    const b = shapes.nameFor('UPDATE task SET status = $3');
    expect(a).toBe(preparedName('task_update', 'UPDATE task SET title = $3'));
    expect(b).toMatch(/^task_update_[A-Za-z0-9_-]{20}$/);
    expect(b).not.toBe(a);
    // a third shape is over the cap: unnamed, now and later
    expect(shapes.nameFor('UPDATE task SET priority = $3')).toBeNull();
    expect(shapes.nameFor('UPDATE task SET priority = $3')).toBeNull();
    // the shapes already prepared keep their names
    expect(shapes.nameFor('UPDATE task SET title = $3')).toBe(a);
    expect(shapes.nameFor('UPDATE task SET status = $3')).toBe(b);
  });
});
