// The pretty pictures of the five preset objects (viewer-spec §1, §3) on the application's globe:
// added with the base layers, so that every screen over the globe shows the same sky. In the
// normal view each shows as the zoom reaches its object (zoomFade; expert mode shows them at
// every zoom, useSettingsOnGlobe), and the deep-sky objects in its field give way to it as it
// fades in (imageFields.ts).
import type { Globe } from '../../../globe/Globe';
import { PrettyPictureLayer } from '../../../globe/layers/pretty-picture';
import { PRETTY_PICTURES, type PrettyPicture } from '../../../../shared/prettyPicture';
import type { ImageFields } from './imageFields';

/** The layer's name on the globe. */
export function prettyPictureLayerName(which: PrettyPicture): string {
  return `pretty-picture:${which}`;
}

/** The globe's pretty-picture layer of `which`, if it has one. */
export function prettyPictureLayer(globe: Globe, which: PrettyPicture): PrettyPictureLayer | null {
  const layer = globe.layersNamed(prettyPictureLayerName(which))[0];
  return layer instanceof PrettyPictureLayer ? layer : null;
}

/** Adds the five pictures, each telling `fields` where it lies once its meta.json is in. */
export function addPrettyPictures(globe: Globe, dataRepository: string, fields: ImageFields): void {
  for (const which of PRETTY_PICTURES) {
    const layer = new PrettyPictureLayer({ dataRepository, which, zoomFade: true });
    try {
      globe.addLayer(layer);
    } catch (error) {
      // No float textures (warned by the layer, viewer-spec §8): the sky stays without them.
      console.error(`pretty picture ${which} cannot be shown`, error);
      continue;
    }
    void layer.loaded
      .then(() => {
        const field = layer.field();
        if (field) fields.add([field]);
      })
      .catch(() => {});
  }
}
