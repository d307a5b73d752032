// A course's name in the page's language (the names the main screen's course menu shows); an
// unknown course keeps its id.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export function useCourseName(): (courseId: string) => string {
  const { t } = useTranslation();
  return useCallback((courseId: string) => t(`home.courses.${courseId}`, { defaultValue: courseId }), [t]);
}
