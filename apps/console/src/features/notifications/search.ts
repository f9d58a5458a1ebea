import { pageFields, type SearchOf, searchSchema, searchText } from '../../components/list/listSearch';

/** /notifications?q=&page=&page_size= (the company comes from the header selector). */
const mailingsSearch = { q: searchText(), ...pageFields };
export type MailingsSearch = SearchOf<typeof mailingsSearch>;
export const parseMailingsSearch = searchSchema(mailingsSearch);
