/**
 * The edit form's image URL check (src/domain/image-source.ts): an image on another site says
 * so under its field before anything is sent, in the page's language; this site's paths and
 * URLs and the CDN's say nothing.
 */
import '../../i18n';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import { ImagesField, imageElsewhere } from './ImagesField';

const image = (img: string) => ({ img, name: '', desc: '' });

describe('imageElsewhere', () => {
  it('names the other site of an image the pages would not show, and nothing for allowed ones', () => {
    const site = 'https://raidmap.example';
    expect(imageElsewhere('https://evil.example/a.png', site, [])).toBe('https://evil.example');
    expect(imageElsewhere('//evil.example/a.png', site, [])).toBe('https://evil.example');
    expect(imageElsewhere('https://cdn.example.com/a.png', site, ['https://cdn.example.com'])).toBeNull();
    for (const url of ['/uploads/a.webp', `${site}/uploads/a.webp`, 'https:', 'htt', '']) expect(imageElsewhere(url, site, []), url).toBeNull();
  });
});

describe('ImagesField', () => {
  afterEach(() => setLanguage('en'));

  it('says under the URL field that an image on another site is not shown nor saved, before any save', () => {
    render(<ImagesField uid="m1" imgs={[image('/uploads/sample/a.webp'), image('https://evil.example/a.png')]} onChange={() => {}} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('“https://evil.example” is another site: the map pages do not show its images, and a new image from it is not saved. Upload the file here instead.');
    const field = screen.getByLabelText('URL of image 2');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAttribute('aria-describedby', alert.id);
    expect(screen.getByLabelText('URL of image 1')).not.toHaveAttribute('aria-invalid');
  });

  it('says nothing for this site’s paths and URLs', () => {
    render(<ImagesField uid="m1" imgs={[image('/uploads/sample/a.webp'), image(`${window.location.origin}/uploads/b.webp`)]} onChange={() => {}} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says it in Russian on a Russian page', async () => {
    await setLanguage('ru');
    render(<ImagesField uid="m1" imgs={[image('https://evil.example/a.png')]} onChange={() => {}} />);
    expect(screen.getByRole('alert')).toHaveTextContent('«https://evil.example» — другой сайт');
  });
});
