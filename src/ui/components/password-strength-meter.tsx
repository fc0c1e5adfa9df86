import { Label } from 'react-aria-components/Label';
import { Meter } from 'react-aria-components/Meter';
import { useTranslation } from 'react-i18next';
import { passwordStrength, strengthLevel, type StrengthLevel } from '../../domain/password-strength';
import { cx } from './class-names';
import * as styles from './password-strength-meter.css';
import { VisuallyHidden } from './visually-hidden';

export interface PasswordStrengthMeterProps {
  /** The password typed so far; nothing is shown while it is empty. */
  password: string;
  /** Visible label; defaults to "Força da senha". */
  label?: string;
  /**
   * Id of the element that says "Força da senha: fraca", so the password field can point at it with
   * `aria-describedby` and a screen reader hears the strength with the field.
   */
  id?: string;
  className?: string;
}

const LEVELS: readonly StrengthLevel[] = ['weak', 'medium', 'strong'];

/**
 * The password score (50/75/100, docs/product.md, Passwords) as "fraca" / "média" / "forte": RAC `Meter` (role meter,
 * `aria-valuenow` the score, `aria-valuetext` the word), a bar of three segments in the level's
 * colour, and the word beside the label. The score comes from `src/domain/password-strength.ts`,
 * the same function the server checks with, so the meter never disagrees with a refusal.
 */
export function PasswordStrengthMeter({ password, label, id, className }: PasswordStrengthMeterProps) {
  const { t } = useTranslation();
  if (password === '') return null;
  const score = passwordStrength(password);
  const level = strengthLevel(score);
  const word = t(`password.strength.${level}`);
  const reached = LEVELS.indexOf(level);
  const name = label ?? t('password.strength.label');
  return (
    <div className={cx(styles.root, className)}>
      <Meter value={score} minValue={0} maxValue={100} valueLabel={word} className={styles.root}>
        <div className={styles.labels}>
          <Label>{name}</Label>
          <span className={styles.level} aria-hidden="true">
            {word}
          </span>
        </div>
        <div className={styles.track} aria-hidden="true">
          {LEVELS.map((segment, index) => (
            <span key={segment} className={cx(styles.segment, index <= reached && styles.filled[level])} />
          ))}
        </div>
      </Meter>
      {/*
       * A meter's content is presentational, so its value changes are not announced; this polite
       * status says the level when it changes (React keeps the same text node between keystrokes
       * of one level, so nothing is repeated).
       */}
      <VisuallyHidden>
        <span id={id} role="status">{`${name}: ${word}`}</span>
      </VisuallyHidden>
    </div>
  );
}
