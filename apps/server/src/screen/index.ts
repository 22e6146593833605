// Placeholder for the editing screen (HTML pages at /): its owner replaces this file.
import express from 'express';
import type { Router } from 'express';
import type { Deps } from '../deps.js';

export function screenRouter(_deps: Deps): Router {
  return express.Router();
}
