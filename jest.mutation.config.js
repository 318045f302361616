// The unit project of jest.config.js on its own, for Stryker (stryker.config.mjs): its Jest runner
// installs its own test environment to learn which test covers which mutant, which a
// multi-project configuration would not pass on to the project.
const { projects } = require('./jest.config');

const unit = { ...projects.find((p) => p.displayName === 'unit') };
delete unit.displayName;

module.exports = unit;
