/** Saves text as a file through a temporary link to a Blob URL (no server round trip). */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // After the click has started the download.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
