// A volunteer's avatar (their Gravatar), or a placeholder figure when there is none or the
// picture cannot load: Gravatar is another site, which a network, a blocker or a removed account
// may keep away, and a broken image would show its alt text clipped to the avatar's small box.
// The placeholder keeps the alt text as its accessible name (none where the avatar is decoration).
import { UserRound } from 'lucide-react';
import { useState } from 'react';
import './Avatar.css';

export function Avatar({
  src,
  alt,
  size,
  className = '',
}: {
  src: string | null | undefined;
  /** '' where the avatar is decoration beside the volunteer's name. */
  alt: string;
  size: number;
  className?: string;
}) {
  // The source that failed: a new source (another volunteer, a changed setting) is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src)
    return (
      <span
        className={`avatar-placeholder ${className}`}
        style={{ width: size, height: size }}
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        aria-hidden={alt ? undefined : true}
        data-testid="avatar-placeholder"
      >
        <UserRound size={Math.round(size * 0.64)} aria-hidden="true" />
      </span>
    );
  return <img className={className} src={src} alt={alt} width={size} height={size} onError={() => setFailed(src)} />;
}
