/**
 * The tests' PSP is the one fake PSP of src-main/bench/fake-psp.ts (the bench uses it too): the
 * API Pix over real HTTPS with mutual TLS, every request body validated against the spec's
 * schemas, scripted faults, held answers and payments.
 */
export {
  makeCertificates,
  startFakePsp,
  validateCob,
  type Cob,
  type FakePsp,
  type FakePspOptions,
  type Fault,
  type PspCall,
  type Violacao,
} from '../../src-main/bench/fake-psp';
