/**
 * Every image a person has uploaded (their folder of user-media, logos
 * included), listed with storage-js's list(), so they can see what the
 * service holds of theirs, including photos no longer on their profile.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button } from '../../components/ui';
import { messageOf } from '../../lib/functionError';
import { withQueries } from '../../lib/QueryProvider';
import { getSupabase } from '../../lib/supabase';
import { thumbTransform } from '../../lib/images';
import { accountKeys } from './queries';

/** One uploaded image: its path in the bucket and the URL of its thumbnail. */
export interface MyPhoto {
  path: string;
  url: string;
}

/** The side, in CSS pixels, of a thumbnail. */
const THUMB_PX = 72;

const BUCKET = 'user-media';

/**
 * listMyPhotos lists the files of the folder {userId} and its logos folder,
 * newest first, each with the URL of its thumbnail (a sized image, not the
 * stored photo).
 */
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
      out.push({ path, url: bucket.getPublicUrl(path, { transform: thumbTransform(THUMB_PX) }).data.publicUrl });
    }
  }
  return out;
}

/** MyPhotos shows the person's uploaded images as thumbnails, with a retry when the list fails. */
function MyPhotosList({ userId, list = listMyPhotos }: { userId: string | undefined; list?: (userId: string) => Promise<MyPhoto[]> }) {
  const photos = useQuery({ queryKey: accountKeys.photos(userId), queryFn: () => list(userId!), enabled: Boolean(userId) });
  if (photos.isError) {
    return (
      <Alert severity="error" action={<Button color="inherit" onClick={() => void photos.refetch()}>Try again</Button>}>
        {`Could not list your uploaded photos: ${messageOf(photos.error)}`}
      </Alert>
    );
  }
  if (!photos.data) return <p className="fk-p" role="status">Loading your photos...</p>;
  if (photos.data.length === 0) return <p className="fk-p">You have not uploaded any photos.</p>;
  return (
    <>
      <p className="fk-p">
        {photos.data.length === 1 ? 'One photo' : `${photos.data.length} photos`} uploaded, newest first. Deleting your account removes them all.
      </p>
      <ul className="thumbs">
        {photos.data.map((p, i) => (
          <li key={p.path}>
            <img src={p.url} alt={`Uploaded photo ${i + 1}`} width={THUMB_PX} height={THUMB_PX} loading="lazy" className="thumb" />
          </li>
        ))}
      </ul>
    </>
  );
}

/** MyPhotos, with the query client (it is also shown on its own). */
export const MyPhotos = withQueries(MyPhotosList);
