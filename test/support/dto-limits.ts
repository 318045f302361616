import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { defaultMetadataStorage as TypeStorage } from 'class-transformer/types/storage';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

// class-transformer's @Type() registry (which class a nested field holds) has no typed entry point.
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: typeof TypeStorage };

type Class = new (...args: any[]) => object;

/**
 * The classes the validation pipe checks for some route: the `@Body()` and `@Query()` parameter
 * types of every controller handler, plus the classes they nest (`@ValidateNested` + `@Type`).
 * `extra` adds classes a service validates itself (an import's tasks, one by one).
 */
export function routeDtoClasses(app: INestApplicationContext, extra: Class[] = []): Class[] {
  const found = new Set<Class>(extra);
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const ctrl = wrapper.metatype as any;
      if (!ctrl?.prototype) continue;
      for (const name of Object.getOwnPropertyNames(ctrl.prototype)) {
        if (name === 'constructor') continue;
        const args: Record<string, { index: number }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, ctrl, name) ?? {};
        const types: unknown[] = Reflect.getMetadata('design:paramtypes', ctrl.prototype, name) ?? [];
        for (const [key, arg] of Object.entries(args)) {
          const kind = Number(key.split(':')[0]);
          if (kind !== RouteParamtypes.BODY && kind !== RouteParamtypes.QUERY) continue;
          const type = types[arg.index];
          if (typeof type === 'function' && getMetadataStorage().getTargetValidationMetadatas(type, '', true, false).length) found.add(type as Class);
        }
      }
    }
  }
  // Nested classes, transitively.
  const queue = [...found];
  while (queue.length) {
    const cls = queue.pop()!;
    for (const m of getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false)) {
      if (m.type !== ValidationTypes.NESTED_VALIDATION) continue;
      const nested = defaultMetadataStorage.findTypeMetadata(cls, m.propertyName)?.typeFunction() as Class | undefined;
      if (nested && !found.has(nested)) {
        found.add(nested);
        queue.push(nested);
      }
    }
  }
  return [...found];
}

/** A regular expression that cannot match more than a bounded number of characters (no `*`, `+` or `{n,}`). */
export const boundedPattern = (re: RegExp): boolean => !/(^|[^\\])([*+]|\{\d+,\})/.test(re.source.replace(/\\\\/g, ''));

/** What a validator says about a field: that it is (or may be) a string, an array, and whether it bounds each. */
export interface ValidatorFacts {
  string?: boolean;
  stringBound?: boolean;
  array?: boolean;
  arrayBound?: boolean;
  /** A free-form object, bounded by the size of its JSON text or by a class that validates its members. */
  object?: boolean;
  objectBound?: boolean;
}

/**
 * The facts of class-validator's own validators. A string field is bounded by MaxLength/Length,
 * or by a validator whose accepted values are bounded (UUID, enum/list, a pattern without open
 * repetition); an array by ArrayMaxSize.
 */
const BUILT_IN: Record<string, (m: ValidationMetadata) => ValidatorFacts> = {
  isString: () => ({ string: true }),
  maxLength: () => ({ stringBound: true }),
  isLength: (m) => ({ stringBound: m.constraints?.[1] !== undefined }),
  isUuid: () => ({ string: true, stringBound: true }),
  isIn: () => ({ stringBound: true }),
  isEnum: () => ({ stringBound: true }),
  isBoolean: () => ({}),
  isInt: () => ({}),
  isNumber: () => ({}),
  min: () => ({}),
  max: () => ({}),
  minLength: () => ({ string: true }),
  isNotEmpty: () => ({}),
  isObject: () => ({ object: true }),
  // validator.js refuses addresses over 254 characters (RFC 5321).
  isEmail: () => ({ string: true, stringBound: true }),
  matches: (m) => ({ string: true, stringBound: m.constraints?.[0] instanceof RegExp ? boundedPattern(m.constraints[0]) : false }),
  isArray: () => ({ array: true }),
  arrayMaxSize: () => ({ array: true, arrayBound: true }),
  arrayMinSize: () => ({ array: true }),
  arrayNotEmpty: () => ({ array: true }),
  arrayUnique: () => ({ array: true }),
};

export interface FieldProblem {
  field: string;
  problem: string;
}

/**
 * Every string field without an upper bound on its length and every array field without a
 * maximum size, in the given classes. `custom` gives the facts of the project's own validators
 * (`ValidateBy` names); a validator in neither table is a problem too, so a new one is classified
 * before it is trusted. `exempt` names objects bounded elsewhere, with the reason.
 */
export function unboundedFields(classes: Class[], custom: Record<string, ValidatorFacts>, exempt: Record<string, string> = {}): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const cls of classes) {
    const byProp = new Map<string, ValidationMetadata[]>();
    for (const m of getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false)) {
      if (!byProp.has(m.propertyName)) byProp.set(m.propertyName, []);
      byProp.get(m.propertyName)!.push(m);
    }
    for (const [prop, metas] of byProp) {
      const field = `${cls.name}.${prop}`;
      const facts: ValidatorFacts = {};
      const designType = Reflect.getMetadata('design:type', cls.prototype, prop);
      if (designType === String) facts.string = true;
      if (designType === Array) facts.array = true;
      for (const m of metas) {
        if (m.type === ValidationTypes.CONDITIONAL_VALIDATION || m.type === ValidationTypes.WHITELIST || m.type === ValidationTypes.IS_DEFINED) continue;
        if (m.type === ValidationTypes.NESTED_VALIDATION) {
          if (m.each) facts.array = true;
          facts.objectBound = true;
          continue;
        }
        const name = m.name ?? getMetadataStorage().getTargetValidatorConstraints(m.constraintCls)[0]?.name ?? '';
        const known = BUILT_IN[name]?.(m) ?? custom[name];
        if (!known) {
          out.push({ field, problem: `validator "${name}" is not classified (add it to the table of custom validators)` });
          continue;
        }
        if (m.each) facts.array = true;
        for (const k of Object.keys(known) as (keyof ValidatorFacts)[]) facts[k] = facts[k] || known[k];
      }
      if (facts.string && !facts.stringBound) out.push({ field, problem: 'string without a maximum length' });
      if (facts.array && !facts.arrayBound) out.push({ field, problem: 'array without a maximum size' });
      if (facts.object && !facts.objectBound && !exempt[field]) out.push({ field, problem: 'free-form object without a size bound' });
    }
  }
  return out;
}
