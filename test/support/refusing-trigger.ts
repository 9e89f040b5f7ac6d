import type pg from 'pg';

/**
 * Runs `fn` while `table` refuses inserted rows matching `when` (a condition on NEW) with an
 * exception, as a constraint or a failing disk would: a write the code did not foresee failing.
 * The trigger is dropped afterwards, whatever `fn` did.
 */
export async function whileRefusing<T>(
  admin: pg.Pool,
  table: string,
  when: string,
  fn: () => Promise<T>,
): Promise<T> {
  const name = `teste_recusa_${table}`;
  await admin.query(`
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${when} THEN RAISE EXCEPTION 'falha simulada'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}();`);
  try {
    return await fn();
  } finally {
    await admin.query(`DROP TRIGGER ${name} ON ${table}; DROP FUNCTION ${name}();`);
  }
}
