/**
 * Every image a person has uploaded (their folder of user-media, logos
 * included), listed with storage-js's list(), so they can see what the
 * service holds of theirs, including photos no longer on their profile.
 */
import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { getSupabase } from '../../lib/supabase';

/** One uploaded image: its path in the bucket and its public URL. */
export interface MyPhoto {
  path: string;
  url: string;
}

const BUCKET = 'user-media';

/** listMyPhotos lists the files of the folder {userId} and its logos folder, newest first. */
export async function listMyPhotos(userId: string): Promise<MyPhoto[]> {
  const bucket = (await getSupabase()).storage.from(BUCKET);
  const out: MyPhoto[] = [];
  const folders = [userId];
  for (let i = 0; i < folders.length; i++) {
    const { data, error } = await bucket.list(folders[i], { limit: 1000, sortBy: { column: 'created_at', order: 'desc' } });
    if (error) throw error;
    for (const f of data) {
      const path = `${folders[i]}/${f.name}`;
      if (f.id === null) {
        if (i === 0) folders.push(path); // one level of folders (logos)
        continue;
      }
      out.push({ path, url: bucket.getPublicUrl(path).data.publicUrl });
    }
  }
  return out;
}

/** MyPhotos shows the person's uploaded images as thumbnails, with a retry when the list fails. */
export function MyPhotos({ userId, list = listMyPhotos }: { userId: string | undefined; list?: (userId: string) => Promise<MyPhoto[]> }) {
  const [photos, setPhotos] = useState<MyPhoto[] | null>(null);
  const [error, setError] = useState('');
  const load = useCallback(() => {
    if (!userId) return;
    setError('');
    list(userId)
      .then(setPhotos)
      .catch((err: Error) => setError(`Could not list your uploaded photos: ${err.message}`));
  }, [userId, list]);
  useEffect(load, [load]);
  if (error) {
    return (
      <Alert severity="error" action={<Button color="inherit" onClick={load}>Try again</Button>}>
        {error}
      </Alert>
    );
  }
  if (!photos) return <Typography role="status">Loading your photos...</Typography>;
  if (photos.length === 0) return <Typography>You have not uploaded any photos.</Typography>;
  return (
    <>
      <Typography>
        {photos.length === 1 ? 'One photo' : `${photos.length} photos`} uploaded, newest first. Deleting your account removes them all.
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {photos.map((p, i) => (
          <li key={p.path}>
            <Box component="img" src={p.url} alt={`Uploaded photo ${i + 1}`} width={72} height={72} loading="lazy"
              sx={{ objectFit: 'cover', borderRadius: 2, bgcolor: '#e9e4da', display: 'block' }} />
          </li>
        ))}
      </Box>
    </>
  );
}
