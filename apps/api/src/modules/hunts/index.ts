/* Credential-leak hunting (#34): the matcher, the dump reader (containers, bad input, byte ranges) and the verdict. */
export { type CompanyIdentities, foldHost, foldLogin, type HuntMatch, HuntMatcher, type ScanStats } from './matcher';
export { HUNT_INPUT_MSG, HuntInputError, type RangeOpen, scanFile, scanRange, scanStream, splitRanges } from './reader';
export { type AccountFinding, accountFinding } from './results';
export { huntKey, type PasswordVerdict } from './verdict';
