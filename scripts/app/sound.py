"""Short generated tones (numpy -> pygame.sndarray); silent when off or when there is no audio device."""

from __future__ import annotations

import numpy as np

# name -> ((frequency Hz, seconds), ...) played one after another
TUNES = {
    "move": ((660, 0.05),),
    "computer": ((440, 0.05),),
    "refused": ((180, 0.12),),
    "win": ((523, 0.09), (659, 0.09), (784, 0.16)),
    "lose": ((392, 0.12), (330, 0.12), (262, 0.2)),
    "draw": ((440, 0.1), (440, 0.1)),
}


def tone(notes, rate: int = 22050, channels: int = 1, volume: float = 0.25) -> np.ndarray:
    """int16 samples of ``notes`` (frequency, seconds) with a short fade in and out each."""
    parts = []
    for freq, seconds in notes:
        t = np.arange(int(rate * seconds)) / rate
        wave = np.sin(2 * np.pi * freq * t)
        fade = np.minimum(1.0, np.minimum(t, seconds - t) / 0.01)
        parts.append(wave * fade)
    samples = (np.concatenate(parts) * volume * 32767).astype(np.int16)
    return np.repeat(samples[:, None], channels, axis=1) if channels > 1 else samples


class Sound:
    """Plays the app's tones; ``enabled`` may be switched at any time."""

    def __init__(self, enabled: bool = True) -> None:
        self.available = False
        self._sounds: dict[str, object] = {}
        self.enabled = enabled
        if enabled:
            self._init()

    def _init(self) -> None:
        import pygame

        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=22050, size=-16, channels=1)
            rate, _, channels = pygame.mixer.get_init()
            self._sounds = {
                name: pygame.sndarray.make_sound(tone(notes, rate, channels)) for name, notes in TUNES.items()
            }
            self.available = True
        except (pygame.error, ValueError, NotImplementedError):
            self.available = False

    def toggle(self) -> bool:
        self.enabled = not self.enabled
        if self.enabled and not self.available:
            self._init()
        return self.enabled

    def play(self, name: str) -> bool:
        if not (self.enabled and self.available) or name not in self._sounds:
            return False
        self._sounds[name].play()
        return True
