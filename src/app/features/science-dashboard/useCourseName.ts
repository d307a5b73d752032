// The dashboard names courses as every screen does (an imported course by the server's name).
export { useCourseName } from '../../api/courses';
