// The profile's gravatar rule (application-spec §5): public display is possible only while
// gravatar use is on, and turning use off clears it. The server applies the same rule.
export interface GravatarChoice {
  gravatar_private: boolean;
  gravatar_public: boolean;
}

export function setGravatarUse(choice: GravatarChoice, use: boolean): GravatarChoice {
  return { gravatar_private: use, gravatar_public: use && choice.gravatar_public };
}

export function setGravatarPublic(choice: GravatarChoice, shown: boolean): GravatarChoice {
  return { ...choice, gravatar_public: choice.gravatar_private && shown };
}
