// A usage error (a missing argument, a bad option value, an unknown command) prints commander's
// one line naming it and a pointer to the command's help, and exits 2, as getopt-style tools
// do; not the whole help (18–41 lines) under the line, where the line scrolls out of sight.
import type { Command, CommanderError } from 'commander';

/** Exit status of a command line that could not be understood; a failed command exits 1. */
export const USAGE_EXIT = 2;

/** Commander's errors that are about the command line typed. */
const USAGE_ERRORS: ReadonlySet<string> = new Set([
  'commander.missingArgument',
  'commander.optionMissingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.conflictingOption',
  'commander.unknownOption',
  'commander.excessArguments',
  'commander.unknownCommand',
  'commander.invalidArgument',
]);

/** The exit status for a commander error: USAGE_EXIT for a usage error, commander's own otherwise (0 after --help or --version). */
export function exitStatusOf(e: CommanderError): number {
  return USAGE_ERRORS.has(e.code) ? USAGE_EXIT : e.exitCode;
}

/** Gives every command (the program's tree, once built) the short form: "(see loam <command> --help)" and exit 2. */
export function shortUsageErrors(program: Command): void {
  const walk = (c: Command, path: readonly string[]): void => {
    c.showHelpAfterError(`(see ${['loam', ...path, '--help'].join(' ')})`);
    c.exitOverride((e) => process.exit(exitStatusOf(e)));
    for (const s of c.commands) walk(s, [...path, s.name()]);
  };
  walk(program, []);
}
