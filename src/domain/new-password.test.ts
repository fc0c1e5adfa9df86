import { newPasswordProblem } from './new-password';

describe('newPasswordProblem', () => {
  it('refuses what the server refuses: short, runs and sequences', () => {
    expect(newPasswordProblem('Ab#1x', 'Ab#1x')).toBe('weak');
    expect(newPasswordProblem('Senha#aaa!9', 'Senha#aaa!9')).toBe('weak');
    expect(newPasswordProblem('Senha#123!x', 'Senha#123!x')).toBe('weak');
  });

  it('asks the two copies to agree, and a temporary password to be replaced by another', () => {
    expect(newPasswordProblem('Nova#Senha!26', 'Nova#Senha!27')).toBe('mismatch');
    expect(newPasswordProblem('Temp#Senha!26', 'Temp#Senha!26', 'Temp#Senha!26')).toBe('same');
    expect(newPasswordProblem('Nova#Senha!26', 'Nova#Senha!26', 'Temp#Senha!26')).toBeNull();
    expect(newPasswordProblem('Nova#Senha!26', 'Nova#Senha!26')).toBeNull();
  });

  it('says weak before a mismatch: the first thing to fix', () => {
    expect(newPasswordProblem('abc', 'xyz')).toBe('weak');
  });
});
