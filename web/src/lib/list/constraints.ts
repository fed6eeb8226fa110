// "Custom conditions" (spec 1 §3 search condition, §5): rows of column/operator/value
// joined by and/or/except, sent as the API's `constraints` structure.
export const OPERATORS = ['=', '!=', '>', '>=', '<', '<=', 'like', 'not like', 'in', 'not in', 'between', 'not between'] as const;
export type Operator = (typeof OPERATORS)[number];
export type Condition = 'and' | 'or' | 'except';
export type ConstraintValue = string | number | (string | number)[];

export interface Constraint {
  condition: Condition;
  relation: Condition;
  operator: Operator;
  column: string;
  value: ConstraintValue;
  child: Constraint[];
}
export interface ConstraintGroup {
  condition: Condition;
  constraint: Constraint[];
}

/** One row of the builder as the user edits it. */
export interface ConditionRow {
  condition: Condition;
  column?: string;
  operator?: Operator;
  value?: ConstraintValue;
}

const INVERSE: Record<Operator, Operator> = {
  '=': '!=',
  '!=': '=',
  '>': '<=',
  '>=': '<',
  '<': '>=',
  '<=': '>',
  like: 'not like',
  'not like': 'like',
  in: 'not in',
  'not in': 'in',
  between: 'not between',
  'not between': 'between',
};

/** The except condition inverts the operator (spec 1 §5). */
export const invertOperator = (op: Operator): Operator => INVERSE[op];

export const isListOperator = (op: Operator) => op === 'in' || op === 'not in' || op === 'between' || op === 'not between';

function hasValue(v: ConstraintValue | undefined): v is ConstraintValue {
  if (v === undefined || v === '') return false;
  return !Array.isArray(v) || v.length > 0;
}

/**
 * Turns builder rows into one constraint group. Rows with no column or operator are
 * ignored (spec: "rows with no name or no model"). An `except` row is sent as `and`
 * with the inverted operator, so the server sees a plain comparison.
 */
export function rowsToConstraints(rows: ConditionRow[]): ConstraintGroup[] {
  const constraint: Constraint[] = [];
  for (const r of rows) {
    if (!r.column || !r.operator || !hasValue(r.value)) continue;
    const except = r.condition === 'except';
    const condition: Condition = except ? 'and' : r.condition;
    const value = isListOperator(r.operator) && !Array.isArray(r.value) ? String(r.value).split(',').map((s) => s.trim()).filter(Boolean) : r.value;
    constraint.push({ condition, relation: condition, operator: except ? invertOperator(r.operator) : r.operator, column: r.column, value, child: [] });
  }
  return constraint.length ? [{ condition: 'and', constraint }] : [];
}

/** Back from the stored structure to editable rows (except rows come back as and + inverted). */
export function constraintsToRows(groups: ConstraintGroup[]): ConditionRow[] {
  return groups.flatMap((g) => g.constraint.map((c) => ({ condition: c.condition, column: c.column, operator: c.operator, value: c.value })));
}
