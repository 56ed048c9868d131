import { useEffect, useState } from 'react';
import { DEFAULT_SUPPORT_EMAIL } from '../config/constants';
import { loadConfig } from '../lib/supabase';

/**
 * The support e-mail address the server announces in /config.json
 * (SALAULA_SUPPORT_EMAIL); the default until it arrives or if it cannot be read.
 */
export function useSupportEmail(): string {
  const [email, setEmail] = useState(DEFAULT_SUPPORT_EMAIL);
  useEffect(() => {
    let live = true;
    loadConfig()
      .then((cfg) => live && cfg.supportEmail && setEmail(cfg.supportEmail))
      .catch(() => {}); // keep the default: the page works without the settings
    return () => {
      live = false;
    };
  }, []);
  return email;
}
